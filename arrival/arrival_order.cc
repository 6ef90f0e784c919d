#include "arrival/arrival_order.h"

#include <algorithm>
#include <deque>

#include "schedule/builder.h"

namespace hiercoll {

namespace {

// Position v's schedule: the static algorithm at rank v with root 0.  At
// position 0 of gather and scatter the root's rank-indexed buffer is
// replaced by scratch in position order, with relabelled copies per block
// from (scatter) or to (gather) the user's buffer.
Schedule position_schedule(const Algorithm& a, const CollArgs& call, int v) {
  CollArgs args = call;
  args.rank = v;
  args.root = 0;
  const bool blocks = call.op == Op::kGather || call.op == Op::kScatter;
  if (v != 0) args.send_alias = -1;  // only a root calls in place
  ScheduleBuilder b(blocks ? -1 : args.send_alias);
  if (v != 0 || !blocks) {
    a.build(args, b);
    return b.finish();
  }
  args.send_alias = -1;  // the scratch copy never aliases the user's buffers
  const Span by_pos = b.tmp(args.size);
  if (call.op == Op::kScatter)
    for (int w = 0; w < args.size; ++w) b.relabelled_copy(w, Span{Buf::kSend, w, 1}, Span{Buf::kTmp, by_pos.off + w, 1});
  BuilderView view;
  if (call.op == Op::kScatter) {
    view.send_buf = Buf::kTmp;
    view.send_off = by_pos.off;
  } else {
    view.recv_buf = Buf::kTmp;
    view.recv_off = by_pos.off;
  }
  {
    ScopedView scope(b, view);
    a.build(args, b);
  }
  if (call.op == Op::kGather)
    for (int w = 0; w < args.size; ++w) b.relabelled_copy(w, Span{Buf::kTmp, by_pos.off + w, 1}, Span{Buf::kRecv, w, 1});
  return b.finish();
}

std::vector<int> distinct_peers(const Schedule& s) {
  std::vector<int> out;
  for (const Step& st : s.steps)
    if ((st.kind == StepKind::kSend || st.kind == StepKind::kRecv) &&
        std::find(out.begin(), out.end(), st.peer) == out.end())
      out.push_back(st.peer);
  return out;
}

// The tree behind the schedules: the breadth-first spanning tree of the
// peer graph from position 0 (for tree algorithms, the tree itself), with
// every node's children ordered by subtree size, largest first.
std::vector<std::vector<int>> spanning_children(const std::vector<std::vector<int>>& peers) {
  const int p = static_cast<int>(peers.size());
  std::vector<int> parent(p, -2), order;
  std::vector<std::vector<int>> children(p);
  parent[0] = -1;
  std::deque<int> queue{0};
  while (!queue.empty()) {
    const int v = queue.front();
    queue.pop_front();
    order.push_back(v);
    for (int w : peers[v])
      if (parent[w] == -2) {
        parent[w] = v;
        children[v].push_back(w);
        queue.push_back(w);
      }
  }
  // Positions no schedule talks to (none in a correct algorithm) go last.
  for (int v = 0; v < p; ++v)
    if (parent[v] == -2) {
      parent[v] = 0;
      children[0].push_back(v);
      order.push_back(v);
    }
  std::vector<int> size(p, 1);
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (parent[*it] >= 0) size[parent[*it]] += size[*it];
  for (auto& c : children)
    std::stable_sort(c.begin(), c.end(), [&](int x, int y) { return size[x] > size[y]; });
  return children;
}

std::vector<int> fill_order(const std::vector<std::vector<int>>& children, FillOrder order) {
  std::vector<int> fill;
  if (order == FillOrder::kBreadthFirst) {
    fill.push_back(0);
    for (size_t i = 0; i < fill.size(); ++i)
      for (int c : children[fill[i]]) fill.push_back(c);
    return fill;
  }
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    fill.push_back(v);
    for (auto it = children[v].rbegin(); it != children[v].rend(); ++it) stack.push_back(*it);
  }
  return fill;
}

}  // namespace

bool arrival_order_applies(const CollArgs& a) {
  switch (a.op) {
    case Op::kBcast:
    case Op::kGather:
    case Op::kScatter: return a.size > 1;
    case Op::kReduce: return a.size > 1 && a.commutative;
    default: return false;
  }
}

bool ArrivalTree::is_tree() const {
  size_t ends = 0;
  for (const auto& v : peers) ends += v.size();
  return ends == 2 * static_cast<size_t>(p - 1);
}

ArrivalTree build_arrival_tree(const Algorithm& a, const CollArgs& args, FillOrder order) {
  std::vector<Schedule> at;
  for (int v = 0; v < args.size; ++v) at.push_back(position_schedule(a, args, v));
  return arrival_tree_of(std::move(at), order);
}

ArrivalTree arrival_tree_of(std::vector<Schedule> at, FillOrder order, int per_node) {
  ArrivalTree t;
  t.p = static_cast<int>(at.size());
  t.at = std::move(at);
  for (const Schedule& s : t.at) t.peers.push_back(distinct_peers(s));
  if (per_node <= 0 || t.p % per_node != 0) {
    t.fill = fill_order(spanning_children(t.peers), order);
  } else {
    // The nodes' graph gives the order of node positions; the positions
    // inside a node (of a node without the root, where there is one) the
    // order of indices.
    t.per_node = per_node;
    const int nodes = t.p / per_node;
    std::vector<std::vector<int>> node_peers(nodes), local_peers(per_node);
    const int sample = nodes > 1 ? 1 : 0;
    for (int v = 0; v < t.p; ++v)
      for (int w : t.peers[v]) {
        const int k = v / per_node, l = w / per_node;
        if (k != l && std::find(node_peers[k].begin(), node_peers[k].end(), l) == node_peers[k].end())
          node_peers[k].push_back(l);
        if (k == l && k == sample) local_peers[v % per_node].push_back(w % per_node);
      }
    t.node_fill = fill_order(spanning_children(node_peers), order);
    t.local_fill = fill_order(spanning_children(local_peers), order);
    for (int k : t.node_fill)
      for (int j : t.local_fill) t.fill.push_back(k * per_node + j);
  }
  t.fill_index.assign(t.p, 0);
  for (int i = 0; i < t.p; ++i) t.fill_index[t.fill[i]] = i;
  return t;
}

Placement::Placement(const ArrivalTree& t, int root, const std::vector<int>* node_of)
    : t_(t), node_of_(t.per_node > 0 ? node_of : nullptr) {
  if (!node_of_) return;
  const int nodes = t.p / t.per_node;  // the real nodes too: per_node ranks each
  node_pos_.assign(nodes, -1);
  next_local_.assign(nodes, 0);
  node_pos_[(*node_of_)[root]] = 0;
  next_local_[(*node_of_)[root]] = 1;
}

int Placement::take(int rank) {
  if (!node_of_) return t_.fill[placed_++];
  const int n = (*node_of_)[rank];
  if (node_pos_[n] < 0) node_pos_[n] = t_.node_fill[nodes_placed_++];
  return node_pos_[n] * t_.per_node + t_.local_fill[next_local_[n]++];
}

void Relabelling::reset(int p) {
  rank_.assign(p, -1);
  parked_.assign(p, {});
}

std::vector<int32_t> Relabelling::assign(int pos, int rank) {
  rank_[pos] = rank;
  std::vector<int32_t> woken;
  woken.swap(parked_[pos]);
  return woken;
}

}  // namespace hiercoll
