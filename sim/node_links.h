// The nodes' network links: the concurrent inter-node sends of one node
// share its link's bandwidth fairly (each of k flows gets 1/k), so the
// ranks of a node cannot each send at the full rate, as on a real cluster.
// Fair sharing serves every active flow of a link at the same rate, so the
// flows drain in the order of their finish level on the link's cumulative
// per-flow service (virtual time, as in fair-queueing schedulers): one
// pending kLinkDrained event per link (id: the node), for its next flow to
// drain; a change of the link's flows re-announces it and the previous
// announcement goes stale (its version is no longer the link's).
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "sim/event_queue.h"

namespace hiercoll {

//
// Optionally a link is a token bucket of `burst_bytes` (as Linux's htb
// shaper the emulated cluster uses, tools/cluster_nic.sh): tokens gather
// at the link's rate while it is idle, up to the bucket's depth, and pass
// as many bytes at once (free here); 0 (the default): no bucket.
class NodeLinks {
 public:
  NodeLinks(int nodes, double bytes_per_us, double burst_bytes = 0)
      : links_(static_cast<size_t>(nodes)), bytes_per_us_(bytes_per_us), burst_bytes_(burst_bytes) {
    for (Link& l : links_) l.tokens = burst_bytes;
  }

  // The bytes of a message that the link's bucket does not pass at once
  // (all of them without a bucket); takes the tokens used.
  double charged_bytes(int node, double bytes, double now);
  void add(int node, int64_t flow, double bytes, double now, EventQueue* q);
  // Whether the event announces the link's next drain as it stands.
  bool current(const Event& e) const { return e.version == links_[static_cast<size_t>(e.id)].version; }
  // The flow a current kLinkDrained event announced, removed from its link.
  int64_t drain(const Event& e, double now, EventQueue* q);

 private:
  using Finish = std::pair<double, int64_t>;  // service level at which the flow is done, flow
  struct Link {
    std::priority_queue<Finish, std::vector<Finish>, std::greater<Finish>> flows;
    double service = 0;  // bytes every flow active since the start has received
    double last = 0;
    uint32_t version = 0;
    double tokens = 0;      // the bucket's, when idle_since was
    double idle_since = 0;  // since when no flow has been on the link
  };
  void advance(Link& l, double now);
  void announce(int node, double now, EventQueue* q);

  std::vector<Link> links_;
  double bytes_per_us_;
  double burst_bytes_;
};

}  // namespace hiercoll
