// `hiercoll simulate`: predicted times of hiercoll's collectives on a
// layout of any size (sim/options.h for the command line).
#include <cstdio>
#include <fstream>
#include <iostream>

#include "select/model_figures_json.h"
#include "select/tuning_file.h"
#include "sim/options.h"
#include "sim/report.h"
#include "sim/sweep.h"

int main(int argc, char** argv) {
  using namespace hiercoll;
  SimOptions opt;
  std::string error;
  if (!parse_sim_options(argc, argv, &opt, &error)) {
    std::fprintf(stderr, "hiercoll simulate: %s\n", error.c_str());
    return 2;
  }
  if (opt.help) {
    std::cout << sim_usage();
    return 0;
  }
  TuningFile tuning;
  if (!opt.tuning.empty() && !load_tuning_file(opt.tuning, &tuning, &error)) {
    std::fprintf(stderr, "hiercoll simulate: %s\n", error.c_str());
    return 2;
  }
  if (!opt.calibrate.empty()) {
    std::ifstream csv(opt.calibrate);
    CalibrationSet set;
    if (!csv) error = "cannot read " + opt.calibrate;
    else if (read_calibration_set(csv, opt.placement, opt.tuning.empty() ? nullptr : &tuning, &set, &error)) {
      const Calibration fit =
          calibrate(set, opt.model, opt.fit_absolute ? FitObjective::kAbsolute : FitObjective::kSquares);
      print_calibration(std::cout, set, fit);
      if (opt.figures_out.empty()) return 0;
      const std::string source = "calibrated to " + opt.calibrate + " (" + std::to_string(set.points.size()) +
                                 " points, hiercoll simulate --calibrate)";
      if (!save_figures_file(opt.figures_out, fit.model, source, &error)) {
        std::fprintf(stderr, "hiercoll simulate: %s\n", error.c_str());
        return 1;
      }
      std::cout << "wrote " << opt.figures_out << "\n";
      return 0;
    }
    std::fprintf(stderr, "hiercoll simulate: %s: %s\n", opt.calibrate.c_str(), error.c_str());
    return 2;
  }
  const Layout L = sim_layout(opt);
  const TuningEntry* entry = opt.tuning.empty() ? nullptr : find_entry(tuning, layout_key(L));
  const std::vector<SimPoint> points = run_sweep(opt, L, entry, L.size >= 4096);
  print_table(std::cout, opt, points);
  if (!opt.out.empty()) {
    if (!write_csv_files(opt.out, opt, points, &error)) {
      std::fprintf(stderr, "hiercoll simulate: %s\n", error.c_str());
      return 1;
    }
    std::cout << "wrote " << opt.out << "/simulated.csv and " << opt.out << "/critical_path.csv\n";
  }
  return 0;
}
