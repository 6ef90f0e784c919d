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

// What the start-up probe measured (runtime/figures_probe.h): per level the
// one-way time of a small and of a large message (the median of a few
// ping-pongs; a time < 0: the level was not measured, e.g. one rank per
// node), the fastest of a few reductions, and how the machines' CPUs are
// shared (topo/machines.h).
struct ProbeTimes {
  struct Level {
    double small_us = -1, large_us = -1;  // medians
    double small_bytes = 8, large_bytes = 0;
    double small_fastest_us = -1, large_fastest_us = -1;
  };
  Level inter, intra;
  double reduce_us = -1, reduce_bytes = 0;  // MPI_Reduce_local of doubles, MPI_SUM
  int cpus = 0;              // logical CPUs of the most loaded machine
  int max_ranks_per_machine = 0;
  int machines = 0;          // physical machines (kernel boot ids)
  int nodes = 0;             // nodes of the layout probed
  double elapsed_ms = 0;     // the probe's own time
};

// The model's figures from a probe: latency alpha the small message's
// median one-way time, bandwidth from the difference of the two sizes'
// medians.  Where load made the medians contradict each other (the large
// message no slower than the small), the fastest times of each stand in;
// a level not measured, or measured without sense, keeps `fallback`'s
// figures.  Where a machine runs more
// ranks than it has CPUs, the model's cores are its CPUs (shared by every
// rank where all nodes are one machine, as in the emulated cluster).  The
// rest (link burst, eager limits, per-message CPU time) as the papers'
// model has them, none: a calibration gives those (docs/SIMULATION.md).
Figures figures_from_probe(const ProbeTimes& t, const Figures& fallback);

}  // namespace hiercoll
