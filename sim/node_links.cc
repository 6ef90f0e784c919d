#include "sim/node_links.h"

#include <algorithm>

namespace hiercoll {

NodeLinks::NodeLinks(int nodes, double bytes_per_us, int64_t max_flow_id)
    : links_(static_cast<size_t>(nodes)),
      bytes_per_us_(bytes_per_us),
      remaining_(static_cast<size_t>(max_flow_id + 1), 0.0),
      version_(static_cast<size_t>(max_flow_id + 1), 0) {}

void NodeLinks::advance(Link& l, double now) {
  if (!l.flows.empty()) {
    const double moved = (now - l.last) * bytes_per_us_ / static_cast<double>(l.flows.size());
    for (int64_t f : l.flows) remaining_[static_cast<size_t>(f)] -= moved;
  }
  l.last = now;
}

void NodeLinks::announce(Link& l, double now, EventQueue* q) {
  const double rate = bytes_per_us_ / static_cast<double>(std::max<size_t>(1, l.flows.size()));
  for (int64_t f : l.flows) {
    const size_t i = static_cast<size_t>(f);
    q->push(now + std::max(0.0, remaining_[i]) / rate, EventKind::kLinkDrained, f, ++version_[i]);
  }
}

void NodeLinks::add(int node, int64_t flow, double bytes, double now, EventQueue* q) {
  Link& l = links_[static_cast<size_t>(node)];
  advance(l, now);
  remaining_[static_cast<size_t>(flow)] = bytes;
  l.flows.push_back(flow);
  announce(l, now, q);
}

void NodeLinks::remove(int node, int64_t flow, double now, EventQueue* q) {
  Link& l = links_[static_cast<size_t>(node)];
  advance(l, now);
  l.flows.erase(std::find(l.flows.begin(), l.flows.end(), flow));
  ++version_[static_cast<size_t>(flow)];
  announce(l, now, q);
}

}  // namespace hiercoll
