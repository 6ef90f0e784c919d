#include "tune/model_command.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/options.h"
#include "sim/sweep.h"
#include "tune/entry_file.h"
#include "tune/model_entry.h"
#include "tune/show.h"

namespace {

constexpr const char* kUsage =
    "usage: hiercoll tune --model [--nodes N --ppn P | --ppn-list L --map-by slot|node] [--ops LIST]\n"
    "                     [--sizes LIST] [--figures FILE | figures as for simulate] --out FILE\n"
    "  The tuning file's entry of a layout from the model alone (no MPI job): each operation's decision\n"
    "  at every half-octave size class from the smallest to the largest size (default 8 B-4 MiB), under\n"
    "  the figures of --figures FILE (simulate --calibrate ... --figures-out FILE, or a tuning file whose\n"
    "  entry carries model figures), the figure options, or the built-in ones. The entry carries its\n"
    "  figures, so the runtime decides other sizes and layouts from them. Other entries of FILE are kept.\n";

}  // namespace

namespace hctune {

int run_model_command(int argc, char** argv) {
  using namespace hiercoll;
  SimOptions opt;
  opt.ops = {"bcast", "reduce", "allreduce", "allgather", "alltoall", "scan", "barrier"};
  opt.sizes = {8, 4 << 20};
  std::string error;
  if (!parse_sim_options(argc, argv, &opt, &error)) {
    std::fprintf(stderr, "hiercoll tune --model: %s\n%s", error.c_str(), kUsage);
    return 2;
  }
  if (opt.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (opt.out.empty()) {
    std::fprintf(stderr, "hiercoll tune --model: --out FILE is needed\n%s", kUsage);
    return 2;
  }
  const Layout L = sim_layout(opt);
  hctune::ModelEntryRequest r;
  r.layout = &L;
  r.figures = given_figures(opt, builtin_figures());
  for (const std::string& name : opt.ops) {
    Op op;
    if (!op_from_name(name.c_str(), &op)) {
      std::fprintf(stderr, "hiercoll tune --model: '%s' is not an operation the runtime decides\n", name.c_str());
      return 2;
    }
    r.ops.push_back(op);
  }
  r.min_bytes = *std::min_element(opt.sizes.begin(), opt.sizes.end());
  r.max_bytes = *std::max_element(opt.sizes.begin(), opt.sizes.end());
  TuningEntry entry = hctune::model_entry(r);
  stamp_entry(&entry, "hiercoll tune --model", argc, argv);

  if (!hctune::put_entry_in_file(opt.out, entry, &error)) {
    std::fprintf(stderr, "hiercoll tune --model: %s\n", error.c_str());
    return 1;
  }
  TuningFile mine;
  mine.entries.push_back(entry);
  std::fputs(hctune::decisions_table(mine).c_str(), stdout);
  std::printf("\nwrote %s (layout %s, figures: %s)\n", opt.out.c_str(), layout_text(entry.layout).c_str(),
              r.figures.source.c_str());
  return 0;
}

}  // namespace hctune
