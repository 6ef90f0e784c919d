#include "decide/figures.h"

namespace hiercoll {

const Figures& builtin_figures() {
  static const Figures f = [] {
    Figures g;
    CostModel& m = g.model;
    // The calibration's fits on 4x2, 2x2 and 3,1,2 (docs/SIMULATION.md):
    // the link at the shaper's 2 Gbit/s (fitted 0.21-0.25 GB/s) with its
    // 64 KiB bucket; alpha and the message handling time trade against
    // each other there (alpha 0.6-45 us with 0-20 us of handling), taken
    // in the middle of the fits.
    m.alpha_us = 20;
    m.bandwidth_gbps = 0.25;
    m.shm_alpha_us = 2;
    m.shm_bandwidth_gbps = 5;
    m.reduce_gbps = 2;
    m.burst_bytes = 64 * 1024;
    m.latency_overlaps = true;
    m.cores = 2;
    m.cores_shared_by_all = true;
    m.message_cpu_us = 10;
    m.eager_limit = 64 * 1024;
    m.shm_eager_limit = 4 * 1024;
    g.source = "built-in: the emulated cluster (--nic 2gbit, 2 cores), calibrated in docs/SIMULATION.md";
    return g;
  }();
  return f;
}

Figures figures_from_machine(const MachineFigures& m) {
  Figures f;
  f.model.alpha_us = m.inter_latency_us;
  f.model.bandwidth_gbps = m.inter_bandwidth_gbps;
  f.model.shm_alpha_us = m.intra_latency_us;
  f.model.shm_bandwidth_gbps = m.intra_bandwidth_gbps;
  f.model.reduce_gbps = m.reduce_gbps;
  f.source = "tuning file: " + m.source;
  return f;
}

}  // namespace hiercoll
