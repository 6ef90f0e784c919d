// The simulator's cost model (the alpha-beta-gamma model of the papers,
// with two levels): a message between nodes costs alpha + bytes * beta,
// one inside a node alpha_shm + bytes * beta_shm, reducing costs gamma per
// byte of input.  Bandwidths are in GB/s (10^9 bytes per second), times in
// microseconds.
#pragma once

#include <string>

namespace hiercoll {

struct CostModel {
  // Figures of a current cluster's class (issue 15): InfiniBand-like links,
  // shared memory inside a node.
  double alpha_us = 1.5;
  double bandwidth_gbps = 12.5;
  double shm_alpha_us = 0.3;
  double shm_bandwidth_gbps = 20.0;
  double reduce_gbps = 10.0;
  // Bytes a node's link passes at once after idling (a token bucket, as
  // the emulated cluster's shaper: 64 KiB); 0: none, the papers' model.
  double burst_bytes = 0;
  // False (the papers' model): a sender's port is busy for the whole
  // alpha + bytes * beta.  True (LogP's view): only while its bytes go
  // out; the latency alpha overlaps the next send, whose send step is
  // done then (as an eager send completes before its receive).
  bool latency_overlaps = false;
  // Cores (0: as many as ranks, the papers' model).  With cores > 0 the
  // ranks sharing them (a node's, or every rank with cores_shared_by_all:
  // the emulated cluster runs all its nodes on one machine) queue for a
  // core, first come first served, for each reduction (its bytes x gamma)
  // and for each message's handling at its receiver (message_cpu_us, after
  // its transfer): where ranks outnumber cores, a step's local work waits
  // for a core, not for bandwidth.
  int cores = 0;
  bool cores_shared_by_all = false;
  double message_cpu_us = 0;

  // Microseconds per byte.
  double beta() const { return 1e-3 / bandwidth_gbps; }
  double shm_beta() const { return 1e-3 / shm_bandwidth_gbps; }
  double gamma() const { return 1e-3 / reduce_gbps; }
};

// "" when every figure is usable (latencies >= 0, bandwidths > 0), else
// what is wrong.
std::string check_cost_model(const CostModel& m);

}  // namespace hiercoll
