// The figures of the machine the model decides from (sim/cost_model.h):
// per level latency and bandwidth, how a node's link is shared (the
// engine's fair queueing and the link's burst), the reduction rate, the
// eager limits and the per-message CPU cost.  Taken, in order, from a
// tuning file's measured figures, or the built-in ones below, which say
// where they come from.
#pragma once

#include <string>

#include "select/machine.h"
#include "select/tuning_file.h"
#include "sim/cost_model.h"

namespace hiercoll {

struct Figures {
  CostModel model;
  std::string source;
};

// The emulated cluster's figures (tools/cluster.sh, default link model
// --nic 2gbit: Open MPI 4.1.4 over loopback, 8 ranks on 2 cores), from
// the calibration of docs/SIMULATION.md ("Calibration": link burst,
// overlapping latencies, 2 shared cores, eager limits).
const Figures& builtin_figures();

// A tuning file's measured figures (select/machine.h, bench's ping-pong)
// in the model: latency and bandwidth per level and the reduction rate;
// the rest (burst, cores, eager limits) as the papers' model has them,
// none.
Figures figures_from_machine(const MachineFigures& m);

// The model figures a tuning file's entry carries ("model"), saying so.
Figures figures_of_entry(const std::string& path, const TuningEntry& e);

}  // namespace hiercoll
