#include "decide/figures.h"

#include <cstdio>

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

namespace {

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// A small and a large one-way time that say something of bandwidth.
bool sensible(double small_us, double large_us, const ProbeTimes::Level& l) {
  return small_us >= 0 && large_us > small_us && l.large_bytes > l.small_bytes;
}

// One level's figures into *alpha_us and *gbps: measured, else the
// fallback's; said in *what.
void take_level(const ProbeTimes::Level& l, double fallback_alpha, double fallback_gbps, const std::string& fallback,
                double* alpha_us, double* gbps, std::string* what) {
  const bool medians = sensible(l.small_us, l.large_us, l);
  if (!medians && !sensible(l.small_fastest_us, l.large_fastest_us, l)) {
    *alpha_us = fallback_alpha, *gbps = fallback_gbps;
    *what += "as " + fallback;
    return;
  }
  const double small = medians ? l.small_us : l.small_fastest_us;
  const double large = medians ? l.large_us : l.large_fastest_us;
  *alpha_us = small;
  *gbps = (l.large_bytes - l.small_bytes) / (large - small) * 1e-3;
  *what += fixed(*alpha_us, 2) + " us + " + fixed(*gbps, 3) + " GB/s" + (medians ? "" : " (fastest round trips)");
}

}  // namespace

Figures figures_from_probe(const ProbeTimes& t, const Figures& fallback) {
  Figures f;
  CostModel& m = f.model;
  const CostModel& b = fallback.model;
  std::string what = "probe (" + fixed(t.elapsed_ms, 1) + " ms): inter-node ";
  take_level(t.inter, b.alpha_us, b.bandwidth_gbps, fallback.source, &m.alpha_us, &m.bandwidth_gbps, &what);
  what += "; intra-node ";
  take_level(t.intra, b.shm_alpha_us, b.shm_bandwidth_gbps, fallback.source, &m.shm_alpha_us, &m.shm_bandwidth_gbps,
             &what);
  m.reduce_gbps = t.reduce_us > 0 ? t.reduce_bytes / t.reduce_us * 1e-3 : b.reduce_gbps;
  what += "; reduce " + fixed(m.reduce_gbps, 2) + " GB/s";
  if (t.cpus > 0 && t.max_ranks_per_machine > t.cpus) {
    m.cores = t.cpus;
    m.cores_shared_by_all = t.machines == 1 && t.nodes > 1;
    what += "; " + std::to_string(t.cpus) + " cores shared by " + (m.cores_shared_by_all ? "all ranks" : "a node's ranks");
  }
  f.source = what;
  return f;
}

Figures figures_of_entry(const std::string& path, const TuningEntry& e) {
  return {e.model, figures_source(path, e)};
}

}  // namespace hiercoll
