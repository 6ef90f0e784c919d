#include "arrival/hier_arrival_tree.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "hier/hier_registry.h"

namespace hiercoll {

Layout consecutive_layout(int size, int per_node) {
  std::vector<int> node_key(size);
  for (int r = 0; r < size; ++r) node_key[r] = r / per_node;
  return make_layout(node_key, {}, "none");
}

namespace {

ArrivalTree unusable() {
  ArrivalTree t;
  t.p = 0;
  return t;
}

// Whether nodes talk only leader to leader.
bool nodes_linked_by_leaders(const ArrivalTree& t) {
  const int q = t.per_node;
  for (int v = 0; v < t.p; ++v)
    for (int w : t.peers[v])
      if (v / q != w / q && (v % q != 0 || w % q != 0)) return false;
  return true;
}

}  // namespace

ArrivalTree build_hier_arrival_tree(const HierChoice& ch, const CollArgs& args, int per_node, FillOrder order) {
  if (ch.sockets || per_node < 1 || args.size % per_node != 0) return unusable();
  const Layout L = consecutive_layout(args.size, per_node);
  std::vector<Schedule> at;
  for (int v = 0; v < args.size; ++v) {
    CollArgs a = args;
    a.rank = v;
    a.root = 0;
    if (v != 0) a.send_alias = -1;  // only a root calls in place
    at.push_back(build_composed(ch, L, a));
  }
  ArrivalTree t = arrival_tree_of(std::move(at), order, per_node);
  if (!nodes_linked_by_leaders(t)) return unusable();
  return t;
}

}  // namespace hiercoll
