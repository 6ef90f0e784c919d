// The points of one `hiercoll simulate` run: every operation x size x
// implementation on one layout, each simulated; rooted operations at a
// sample of roots (the first rank, the middle one, the last), reporting
// the median root as the benchmark reports the median over roots (or at
// the roots of --roots).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "select/tuning_file.h"
#include "sim/engine.h"
#include "sim/options.h"
#include "topo/topology.h"

namespace hiercoll {

struct SimPoint {
  std::string op;
  int64_t bytes = 0;
  std::string impl;
  std::string algorithm;   // what the runtime would run
  bool simulated = false;  // false: skipped, `note` says why
  // The whole schedules pass --max-steps, and the time is the decision's
  // cost derived from smaller layouts (decide/model_cost.h; `note` gives
  // its form): no critical path, steps or messages.
  bool derived = false;
  SimResult result;        // at the median root
  int roots = 0;           // how many roots were simulated
  int64_t events = 0;      // the engine's events over all roots
  double engine_s = 0;     // the engine's wall time over all roots (building the schedules not counted)
  std::string note;
};

// The layout of nodes with these ranks each, placed by slot or round-robin
// by node (as mpirun --map-by), as topo builds it.
Layout layout_of(const std::vector<int>& ranks_per_node, const std::string& placement);
// The layout of the options.
Layout sim_layout(const SimOptions& opt);
// Roots simulated for a rooted operation on p ranks.
std::vector<int> sample_roots(int p);

// Runs every point; `tuning` is the layout's entry of --tuning (or null).
// Progress goes to stderr when `progress`.
std::vector<SimPoint> run_sweep(const SimOptions& opt, const Layout& L, const TuningEntry* tuning, bool progress);

}  // namespace hiercoll
