// Multi-leader allgather(v) (Kandalla et al., "Designing multi-leader-based
// allgather algorithms for multi-core clusters"): several leaders per node,
// each carrying a share of its node's blocks between nodes, so that no
// single rank carries all of them.  With k the fewest ranks of any node,
// local rank i belongs to group i mod k, led by local rank i mod k (a
// node's first k ranks lead):
//  1. every other member sends its block to its group's leader;
//  2. the leaders of group g, one per node (a column), allgatherv their
//     groups' blocks among nodes: k columns at once;
//  3. a node's k leaders allgatherv their columns inside the node, and each
//     leader broadcasts everything to the other members of its group.
// On nodes of equal size every rank leads (no step 1, no broadcast).
// Blocks travel packed group by group, node by node inside a group, so a
// column's blocks and a node's share of them are one span each.  On equal
// nodes placed round robin that order is rank order: the packing is then
// the receive buffer itself where the blocks lie back to back.  Every rank
// knows every block (MPI gives allgatherv's counts to all), so every
// message's size is known at both ends.
#include <algorithm>

#include "algorithms/call_blocks.h"
#include "hier/hier_compose.h"

namespace hiercoll {

namespace {

// The blocks packed by group, then node, then rank.
struct GroupPacking {
  int k = 0;                          // leaders per node
  Blocks ranks;                       // rank j's block in the packing
  std::vector<Blocks> shares;         // shares[g]: node m's group g blocks, one span per node
  Blocks columns;                     // group g's blocks of every node, one span per group
  Span all;
};

std::vector<int> group_members(const Layout& L, int node, int g, int k) {
  std::vector<int> v;
  const std::vector<int>& members = L.node_ranks[node];
  for (size_t i = g; i < members.size(); i += k) v.push_back(members[i]);
  return v;
}

// The packing from 0 (place() moves it where it goes).
GroupPacking group_order(const Layout& L, const Blocks& U) {
  GroupPacking p;
  p.k = static_cast<int>(L.node_ranks[0].size());
  for (const auto& members : L.node_ranks) p.k = std::min(p.k, static_cast<int>(members.size()));
  p.ranks = U;
  p.shares.resize(p.k);
  int64_t pos = 0;
  for (int g = 0; g < p.k; ++g) {
    p.columns.off.push_back(pos);
    for (int m = 0; m < L.num_nodes; ++m) {
      p.shares[g].off.push_back(pos);
      for (int r : group_members(L, m, g, p.k)) {
        p.ranks.off[r] = pos;
        pos += U.n[r];
      }
      p.shares[g].n.push_back(pos - p.shares[g].off.back());
    }
    p.columns.n.push_back(pos - p.columns.off.back());
  }
  p.all = Span{Buf::kTmp, 0, pos};
  return p;
}

// p moved to start at `start` of `buf`.
void place(GroupPacking* p, Buf buf, int64_t start) {
  for (int64_t& off : p->ranks.off) off += start;
  for (Blocks& share : p->shares)
    for (int64_t& off : share.off) off += start;
  for (int64_t& off : p->columns.off) off += start;
  p->all = Span{buf, p->all.off + start, p->all.n};
}

// Where the packing p (from 0) would start in U's buffer if every non-empty
// block of U lies where it puts them; -1 if they do not.
int64_t group_order_start(const GroupPacking& p, const Blocks& U) {
  int64_t start = -1;
  for (int j = 0; j < U.size(); ++j) {
    if (U.n[j] == 0) continue;
    if (start < 0) start = U.off[j] - p.ranks.off[j];
    if (start < 0 || U.off[j] - p.ranks.off[j] != start) return -1;
  }
  return std::max<int64_t>(start, 0);
}

// Allgatherv on g of the blocks `parts` of `work` (offsets absolute), the
// member's own part already in place.
void allgatherv_parts(const HierCall& c, ScheduleBuilder& b, const HierGroup& g, bool inter, const Blocks& parts,
                      Buf work) {
  if (!g.active()) return;
  CollArgs sub = c.phase_args(Op::kAllgatherv, g, parts.n[g.me]);
  const int64_t base = parts.off[0];
  sub.counts = parts.n;
  sub.displs = parts.off;
  for (int64_t& off : sub.displs) off -= base;
  const Algorithm& alg = c.phase_algorithm(inter, &sub);
  run_phase(b, g, alg, sub, Span{work, parts.off[g.me], 0}, Span{work, base, 0}, -1);
}

}  // namespace

void build_hier_allgather_leaders(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const Blocks U = all_blocks(a);
  GroupPacking p = group_order(L, U);
  const int64_t start = group_order_start(p, U);
  const bool direct = start >= 0;
  if (direct)
    place(&p, Buf::kRecv, start);
  else
    place(&p, Buf::kTmp, b.tmp(p.all.n).off);
  const Buf work = p.all.buf;
  const int node = L.node_of[a.rank], me = L.local_rank[a.rank], g = me % p.k;
  const std::vector<int> group = group_members(L, node, g, p.k);
  const Span own = a.send_alias >= 0 ? U.span(Buf::kRecv, a.rank) : own_block(a, Buf::kSend);

  if (me >= p.k) {
    send_nonempty(b, group.front(), own);
  } else {
    b.copy(own, p.ranks.span(work, a.rank));  // in place and direct: onto itself
    for (size_t i = 1; i < group.size(); ++i) recv_nonempty(b, group[i], p.ranks.span(work, group[i]));
    HierGroup column;
    for (int m = 0; m < L.num_nodes; ++m) column.ranks.push_back(L.node_ranks[m][g]);
    column.me = node;
    allgatherv_parts(c, b, column, /*inter=*/true, p.shares[g], work);
    const std::vector<int>& members = L.node_ranks[node];
    HierGroup leaders{std::vector<int>(members.begin(), members.begin() + p.k), me, 0};
    allgatherv_parts(c, b, leaders, /*inter=*/false, p.columns, work);
  }
  HierGroup mine{group, me / p.k, 0};
  if (mine.active()) c.run_level(b, Op::kBcast, balanced_root(mine), false, p.all.n, p.all, p.all, -1);
  if (direct) return;
  for (int j = 0; j < a.size; ++j)
    if (j != a.rank || a.send_alias < 0) b.copy(p.ranks.span(Buf::kTmp, j), U.span(Buf::kRecv, j));
}

}  // namespace hiercoll
