// The nodes' network links: the concurrent inter-node sends of one node
// share its link's bandwidth fairly (each of k flows gets 1/k), so the
// ranks of a node cannot each send at the full rate, as on a real cluster.
// Every change of a link's flows recomputes when each of its flows drains
// and announces it as a kLinkDrained event; earlier announcements of a flow
// go stale (their version is no longer the flow's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/event_queue.h"

namespace hiercoll {

class NodeLinks {
 public:
  // bytes_per_us: one link's bandwidth; flows are numbered 0..max_flow_id.
  NodeLinks(int nodes, double bytes_per_us, int64_t max_flow_id);

  void add(int node, int64_t flow, double bytes, double now, EventQueue* q);
  // Whether the event announces the flow's drain as it stands.
  bool current(const Event& e) const { return e.version == version_[static_cast<size_t>(e.id)]; }
  void remove(int node, int64_t flow, double now, EventQueue* q);

 private:
  struct Link {
    std::vector<int64_t> flows;
    double last = 0;  // when remaining_ was last brought up to date
  };
  void advance(Link& l, double now);
  void announce(Link& l, double now, EventQueue* q);

  std::vector<Link> links_;
  double bytes_per_us_;
  std::vector<double> remaining_;   // per flow id, bytes still to go
  std::vector<uint32_t> version_;  // per flow id
};

}  // namespace hiercoll
