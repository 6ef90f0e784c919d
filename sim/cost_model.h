// The simulator's cost model (the alpha-beta-gamma model of the papers,
// with two levels): a message between nodes costs alpha + bytes * beta,
// one inside a node alpha_shm + bytes * beta_shm, reducing costs gamma per
// byte of input.  Bandwidths are in GB/s (10^9 bytes per second), times in
// microseconds.
#pragma once

#include <string>

namespace hiercoll {

struct CostModel {
  // Figures of a current cluster's class: InfiniBand-like links,
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
  // Eager limits (0: none, the papers' model).  A message of at least this
  // many bytes goes by rendezvous, as Open MPI's ob1 sends what exceeds a
  // BTL's eager limit (header included: TCP 64 KiB, vader 4 KiB): a
  // request to send and its answer cross before the data, one round trip
  // (2 alpha, or 2 alpha_shm inside a node) that holds both ports.
  double eager_limit = 0;
  double shm_eager_limit = 0;
  // The MPICH paper's refined model (§2: a one-way message costs f_alpha
  // and f_beta times an exchange's alpha and beta), at its simplex bound
  // f = 0.5: a rank's one port sends or receives, not both, so an exchange
  // takes two messages' time.  False (f = 1, full duplex): a rank sends one
  // message and receives another at once.
  bool simplex = false;

  // Microseconds per byte.
  double beta() const { return 1e-3 / bandwidth_gbps; }
  double shm_beta() const { return 1e-3 / shm_bandwidth_gbps; }
  double gamma() const { return 1e-3 / reduce_gbps; }
  // The handshake before a message's data: 2 alpha (or 2 alpha_shm) for
  // a rendezvous message, 0 for an eager one.
  double handshake_us(double bytes, bool inside_node) const {
    const double limit = inside_node ? shm_eager_limit : eager_limit;
    return limit > 0 && bytes >= limit ? 2 * (inside_node ? shm_alpha_us : alpha_us) : 0;
  }
};

// "" when every figure is usable (latencies >= 0, bandwidths > 0), else
// what is wrong.
std::string check_cost_model(const CostModel& m);

}  // namespace hiercoll
