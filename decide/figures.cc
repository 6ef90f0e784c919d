#include "decide/figures.h"

namespace hiercoll {

const Figures& builtin_figures() {
  static const Figures f = [] {
    Figures g;
    CostModel& m = g.model;
    // Fitted to one job of the emulated cluster (4x2, --nic 2gbit; 429
    // points of hier, flat and five forced flat algorithms, bcast, reduce,
    // allreduce, allgather, scan and barrier at 8 B-4 MiB; median error
    // 12.1%) by `hiercoll simulate --calibrate results.csv --link-burst
    // 64K --latency-overlaps yes --cores 2 --cores-shared-by all
    // --eager-limit 64K --shm-eager-limit 4K --fit absolute`, the results
    // of `./hiercoll bench --impls
    // hier,flat,flat:binomial,flat:chain,flat:ring,flat:recursive_doubling`.
    m.alpha_us = 50.4;
    m.bandwidth_gbps = 0.2141;
    m.shm_alpha_us = 1.98;
    m.shm_bandwidth_gbps = 2.525;
    m.reduce_gbps = 4.632;
    m.burst_bytes = 64 * 1024;
    m.latency_overlaps = true;
    m.cores = 2;
    m.cores_shared_by_all = true;
    m.message_cpu_us = 14.3;
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

Figures figures_of_entry(const std::string& path, const TuningEntry& e) {
  return {e.model, figures_source(path, e)};
}

}  // namespace hiercoll
