// `hiercoll explain`: why hiercoll runs what it runs (sim/explain.h).
//   explain [--nodes N --ppn P | --ppn-list L --map-by slot|node] [--tuning FILE]
//           --ops LIST --sizes LIST [--csv FILE] [figures as for simulate]
// Without figures, as the runtime: a tuning file's model figures, else the
// built-in ones (decide/figures.h).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "sim/explain.h"
#include "sim/sweep.h"

int main(int argc, char** argv) {
  using namespace hiercoll;
  std::string csv;
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
      csv = argv[++i];
      continue;
    }
    rest.push_back(argv[i]);
  }
  SimOptions opt;
  opt.max_steps = DecideInput{}.max_steps;  // as the runtime decides
  std::string error;
  if (!parse_sim_options(static_cast<int>(rest.size()), rest.data(), &opt, &error)) {
    std::fprintf(stderr, "hiercoll explain: %s\n", error.c_str());
    return 2;
  }
  if (opt.help) {
    std::cout << "usage: hiercoll explain [--nodes N --ppn P | --ppn-list L --map-by slot|node] [--tuning FILE]\n"
                 "                        --ops LIST --sizes LIST [--csv FILE] [--max-steps N]\n"
                 "                        [--figures FILE | figures]\n"
                 "  Every candidate method for each operation and size, its predicted time (the model: the\n"
                 "  simulator's engine on its schedules) or measured time (the tuning file), the winner first and\n"
                 "  the decision's source (model, file, knob, rules). Figures as for `hiercoll simulate`; without\n"
                 "  them, as the runtime: the tuning file's model figures where an entry carries some, else the\n"
                 "  built-in ones. --csv writes op,bytes,rank,method,predicted_us,source.\n";
    return 0;
  }
  TuningFile tuning;
  if (!opt.tuning.empty() && !load_tuning_file(opt.tuning, &tuning, &error)) {
    std::fprintf(stderr, "hiercoll explain: %s\n", error.c_str());
    return 2;
  }
  const Layout L = sim_layout(opt);
  const TuningEntry* entry = opt.tuning.empty() ? nullptr : find_entry(tuning, layout_key(L));
  // As the runtime: figures given, else a tuning file's (figures_entry),
  // else the built-in ones.
  const TuningEntry* carrier = opt.tuning.empty() ? nullptr : figures_entry(tuning, layout_key(L));
  const Figures figures = given_figures(opt, carrier ? figures_of_entry(opt.tuning, *carrier) : builtin_figures());
  std::cout << "# " << layout_text(layout_key(L)) << ", " << L.size << " ranks; figures: " << figures.source
            << "; tuning file: " << (entry ? opt.tuning : opt.tuning.empty() ? "none" : "no entry for this layout")
            << "\n";
  const auto start = std::chrono::steady_clock::now();
  const std::vector<ExplainRow> rows = explain(opt, L, figures, entry);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_explain(std::cout, rows);
  std::printf("# decided in %.3f s\n", seconds);
  if (!csv.empty()) {
    std::ofstream f(csv);
    write_explain_csv(f, rows);
    if (!f) {
      std::fprintf(stderr, "hiercoll explain: cannot write %s\n", csv.c_str());
      return 1;
    }
  }
  return 0;
}
