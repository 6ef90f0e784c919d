// Command line of `hiercoll simulate` (fixed, scripts rely on it):
//   --nodes N --ppn P [--ppn-list L --map-by slot|node] --ops LIST
//   --sizes LIST --impls LIST [--alpha US] [--bandwidth GBPS]
//   [--shm-alpha US] [--shm-bandwidth GBPS] [--reduce-bandwidth GBPS]
//   [--out DIR] [--tuning FILE] [--roots sample|LIST]
//   or --calibrate results.csv [--map-by slot|node] [--tuning FILE] [figures to start from]
// Operations, sizes and implementations are spelled as for `bench`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decide/figures.h"
#include "sim/call_schedules.h"
#include "sim/cost_model.h"

namespace hiercoll {

struct SimOptions {
  std::vector<int> ranks_per_node = {2, 2, 2, 2};
  std::string placement = "slot";  // slot | node
  std::vector<std::string> ops = {"bcast", "reduce", "allreduce", "barrier", "scan", "allgather"};
  std::vector<int64_t> sizes = {8, 1024, 64 * 1024, 1024 * 1024, 4 * 1024 * 1024};
  std::vector<std::string> impls = {"hier", "flat"};
  CostModel model;
  std::string out;     // "" = no files
  std::string tuning;  // --tuning FILE, for the implementation `tuned`
  std::vector<int> roots;  // --roots LIST: rooted operations at these ranks (empty: a sample)
  int64_t max_steps = kDefaultMaxSteps;  // --max-steps: larger calls are skipped (sim/call_schedules.h)
  bool figures_given = false;  // --figures or any figure option
  std::string figures_source;  // --figures FILE: where opt.model's figures came from
  std::string figures_out;     // --figures-out FILE: the calibration's figures written there
  std::string calibrate;   // --calibrate results.csv: fit the model's figures to a benchmark run
  bool fit_absolute = false;  // --fit absolute: least absolute log errors (sim/calibration.h)
  bool help = false;
};

// The figures the command line gives (--figures FILE, figure options),
// saying so, else `otherwise`.
Figures given_figures(const SimOptions& opt, const Figures& otherwise);

// Parses argv[1..argc); false with a one-line *error on bad input.
bool parse_sim_options(int argc, char** argv, SimOptions* opt, std::string* error);
std::string sim_usage();

}  // namespace hiercoll
