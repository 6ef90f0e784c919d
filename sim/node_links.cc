#include "sim/node_links.h"

#include <algorithm>

namespace hiercoll {

void NodeLinks::advance(Link& l, double now) {
  if (!l.flows.empty()) l.service += (now - l.last) * bytes_per_us_ / static_cast<double>(l.flows.size());
  l.last = now;
}

void NodeLinks::announce(int node, double now, EventQueue* q) {
  Link& l = links_[static_cast<size_t>(node)];
  ++l.version;
  if (l.flows.empty()) return;
  const double left = std::max(0.0, l.flows.top().first - l.service);
  q->push(now + left * static_cast<double>(l.flows.size()) / bytes_per_us_, EventKind::kLinkDrained, node, l.version);
}

double NodeLinks::charged_bytes(int node, double bytes, double now) {
  if (burst_bytes_ <= 0) return bytes;
  Link& l = links_[static_cast<size_t>(node)];
  if (l.flows.empty()) {  // the bucket fills while the link idles
    l.tokens = std::min(burst_bytes_, l.tokens + (now - l.idle_since) * bytes_per_us_);
    l.idle_since = now;
  }
  const double used = std::min(bytes, l.tokens);
  l.tokens -= used;
  return bytes - used;
}

void NodeLinks::add(int node, int64_t flow, double bytes, double now, EventQueue* q) {
  Link& l = links_[static_cast<size_t>(node)];
  advance(l, now);
  l.flows.emplace(l.service + bytes, flow);
  announce(node, now, q);
}

int64_t NodeLinks::drain(const Event& e, double now, EventQueue* q) {
  Link& l = links_[static_cast<size_t>(e.id)];
  advance(l, now);
  const int64_t flow = l.flows.top().second;
  l.flows.pop();
  if (l.flows.empty()) l.idle_since = now;
  announce(static_cast<int>(e.id), now, q);
  return flow;
}

}  // namespace hiercoll
