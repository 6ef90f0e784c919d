// Hierarchical scan and exscan (Zhu et al., Sect. 3.5), for consecutive
// node ranks: a scan inside each node; the node totals exscanned among one
// leader per node; the node's prefix broadcast inside the node and folded
// in front of every rank's local result.  The paper's leader is the node
// master, which has the node total from its binomial exchanges; we let the
// node's LAST rank lead instead, since its inclusive local prefix is the
// node total, so no extra local hop is needed.  Rank order is kept
// throughout, so non-commutative operations are right.
#include <algorithm>

#include "hier/hier_compose.h"

namespace hiercoll {

namespace {

// Broadcasts the prefix `e` of the nodes before mine from the node's leader
// and folds it in: Recv = e op Recv (first_empty: Recv = e), segment by
// segment so the folding follows the broadcast.
void fold_node_prefix(const HierCall& c, ScheduleBuilder& b, const HierGroup& local, Span e, bool first_empty) {
  const int64_t n = c.args.count;
  int64_t seg = n;
  if (local.active()) {
    const int64_t phase_seg = c.run_level(b, Op::kBcast, local, false, n, e, e, -1);
    if (phase_seg > 0) seg = phase_seg;
  }
  for (int64_t off = 0; off < n; off += seg) {
    const int64_t len = std::min(seg, n - off);
    const Span from{e.buf, e.off + off, len}, to{Buf::kRecv, off, len};
    if (first_empty) b.copy(from, to);
    else b.reduce(from, to, /*src_first=*/true);
  }
}

// The last rank of node 0 as the "root", so that every node's leader is
// its last rank.
Hierarchy last_rank_hierarchy(const HierCall& c) {
  return c.hierarchy(c.layout.node_ranks[0].back(), LeaderRule::kHighest);
}

}  // namespace

void build_hier_scan(const HierCall& c, ScheduleBuilder& b) {
  const int64_t n = c.args.count;
  if (n == 0) return;
  const Hierarchy h = last_rank_hierarchy(c);
  const HierGroup &top = h.levels[0], &local = h.levels[1];
  const int node = c.layout.node_of[c.args.rank];
  const Span in{Buf::kSend, 0, n}, out{Buf::kRecv, 0, n};
  // Step 1: the local inclusive scan; the leader's result is the node total.
  if (local.active()) {
    c.run_level(b, Op::kScan, local, false, n, in, out, c.args.send_alias);
  } else {
    b.copy(in, out);
  }
  // Step 3: exscan of the node totals among the leaders.
  const Span e = node > 0 ? b.tmp(n) : Span{Buf::kTmp, 0, 0};
  if (top.active()) c.run_level(b, Op::kExscan, top, true, n, out, e, -1);
  // Step 4: the nodes' prefix in front of every local result.
  if (node > 0) fold_node_prefix(c, b, local, e, /*first_empty=*/false);
}

void build_hier_exscan(const HierCall& c, ScheduleBuilder& b) {
  const int64_t n = c.args.count;
  if (n == 0) return;
  const Hierarchy h = last_rank_hierarchy(c);
  const HierGroup &top = h.levels[0], &local = h.levels[1];
  const int node = c.layout.node_of[c.args.rank];
  const bool leader = top.me >= 0, alone = local.size() == 1;
  const Span in{Buf::kSend, 0, n}, out{Buf::kRecv, 0, n};
  // The leader's node total is its local exclusive prefix op its input;
  // keep the input first (in place, the local exscan overwrites it).
  Span total = in;
  if (leader && !alone) {
    total = b.tmp(n);
    b.copy(in, total);
  }
  if (local.active()) c.run_level(b, Op::kExscan, local, false, n, in, out, c.args.send_alias);
  if (leader && !alone) b.reduce(out, total, /*src_first=*/true);
  // A node's prefix goes straight to Recv where the node has one rank.
  const Span e = node == 0 ? Span{Buf::kTmp, 0, 0} : alone ? out : b.tmp(n);
  if (top.active()) c.run_level(b, Op::kExscan, top, true, n, total, e, c.args.send_alias);
  // Local rank 0 has no local prefix: its result is the nodes' prefix.
  if (node > 0 && !alone) fold_node_prefix(c, b, local, e, /*first_empty=*/local.me == 0);
}

}  // namespace hiercoll
