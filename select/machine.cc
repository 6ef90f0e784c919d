#include "select/machine.h"

#include <algorithm>

namespace hiercoll {

int64_t MachineFigures::alpha_over_beta_bytes() const {
  // us * 10^9 B/s = 10^3 bytes per us.
  const double bytes = inter_latency_us * inter_bandwidth_gbps * 1e3;
  return std::max<int64_t>(1024, static_cast<int64_t>(bytes));
}

MachineFigures inside_node(const MachineFigures& m) {
  MachineFigures n = m;
  n.inter_latency_us = m.intra_latency_us;
  n.inter_bandwidth_gbps = m.intra_bandwidth_gbps;
  return n;
}

const MachineFigures& builtin_machine() {
  // The emulated cluster's ping-pong figures between and inside nodes;
  // alpha/beta between nodes is about 256 KiB, which sets the pipelines'
  // default segments (select/flat_rules.h default_segment_bytes).
  static const MachineFigures m = [] {
    MachineFigures f;
    f.inter_latency_us = 83;
    f.inter_bandwidth_gbps = 3.2;
    f.intra_latency_us = 0.3;
    f.intra_bandwidth_gbps = 5.0;
    f.reduce_gbps = 2.0;
    f.source = "built-in: the emulated 4x2 cluster's figures (bench ping-pong, Open MPI 4.1.4 over loopback)";
    return f;
  }();
  return m;
}

}  // namespace hiercoll
