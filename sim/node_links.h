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

class NodeLinks {
 public:
  NodeLinks(int nodes, double bytes_per_us) : links_(static_cast<size_t>(nodes)), bytes_per_us_(bytes_per_us) {}

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
  };
  void advance(Link& l, double now);
  void announce(int node, double now, EventQueue* q);

  std::vector<Link> links_;
  double bytes_per_us_;
};

}  // namespace hiercoll
