// Hierarchical barrier (Zhu et al., Sect. 3.4): the ranks of each node (of
// each socket first, with the socket level) report to their leader along a
// binomial tree, the node masters run the dissemination barrier (Thakur et
// al. Sect. 4.1.2), and the leaders release their ranks along the same
// trees.  Messages carry no data, so every wait is an explicit dependency;
// the paper's 1-byte release is a zero-byte message here, which MPI
// delivers all the same.
#include "algorithms/barrier.h"
#include "algorithms/gather_scatter.h"  // binomial_detail::lowbit
#include "hier/hier_compose.h"

namespace hiercoll {

namespace {

using binomial_detail::lowbit;

// Binomial tree over g relative to its root: v's parent is v - lowbit(v),
// its children v + m for m < lowbit(v) (all m for the root).
struct FanTree {
  const HierGroup& g;
  int v;
  explicit FanTree(const HierGroup& group) : g(group), v((group.me - group.root + group.size()) % group.size()) {}
  int real(int x) const { return g.ranks[(x + g.root) % g.size()]; }
  int bound() const { return v == 0 ? g.size() : lowbit(v); }
};

// Fan-in: a member reports once its subtree (and `entry`) has.  Returns
// what the root then knows: everyone in g entered.
Deps fan_in(ScheduleBuilder& b, const HierGroup& g, const Deps& entry) {
  const FanTree t(g);
  Deps got = entry;
  for (int m = 1; m < t.bound() && t.v + m < g.size(); m <<= 1) got.push_back(b.recv(t.real(t.v + m), kNoData));
  if (t.v == 0) return got;
  b.send(t.real(t.v - lowbit(t.v)), kNoData, got);
  return {};
}

// Fan-out: the root releases once `after` is done; others once released.
Deps fan_out(ScheduleBuilder& b, const HierGroup& g, const Deps& after) {
  const FanTree t(g);
  const Deps released = t.v == 0 ? after : Deps{b.recv(t.real(t.v - lowbit(t.v)), kNoData)};
  for (int m = 1; m < t.bound() && t.v + m < g.size(); m <<= 1) b.send(t.real(t.v + m), kNoData, released);
  return released;
}

}  // namespace

void build_hier_barrier(const HierCall& c, ScheduleBuilder& b) {
  const Hierarchy h = c.hierarchy(0);
  const size_t depth = h.levels.size();
  Deps known;
  for (size_t l = depth; l-- > 1;)
    if (h.levels[l].active()) known = fan_in(b, h.levels[l], known);
  const HierGroup& top = h.levels[0];
  if (top.active()) known = barrier_dissemination(b, Group{top.me, top.size(), &top.ranks}, known);
  for (size_t l = 1; l < depth; ++l)
    if (h.levels[l].active()) known = fan_out(b, h.levels[l], known);
}

}  // namespace hiercoll
