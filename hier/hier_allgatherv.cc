// Hierarchical allgatherv (the node-aggregated form of Zhu et al.'s
// two-level collectives): each node's ranks send their blocks to the node
// leader, the leaders allgather the node blocks (one message per node and
// step instead of one per rank), and each leader broadcasts the whole
// vector inside its node.  The blocks travel packed in node order in
// scratch, so a node's blocks are one message whatever the user's
// displacements; every rank then copies them to their places (unless they
// already lie in that order in its receive buffer).  Every rank
// knows every block (MPI gives allgatherv's counts to all), so leaders and
// members agree on every message without asking.
#include "flat/call_blocks.h"
#include "hier/hier_compose.h"

namespace hiercoll {

void build_hier_allgatherv(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const Hierarchy h = c.hierarchy(0);
  const HierGroup& leaders = h.levels[0];
  const HierGroup& node = h.levels[1];
  const Blocks U = all_blocks(a);
  // P: every rank's block, nodes in order, ranks ascending in a node; N:
  // the node blocks in it.  Where the user's blocks already lie that way
  // (consecutive placement, back-to-back displacements) P is Recv itself,
  // saving a copy in and out; else P is packed in scratch.
  const bool direct = L.consecutive && adjacent_in_order(U);
  const Buf work = direct ? Buf::kRecv : Buf::kTmp;
  Blocks P = U, N;
  int64_t pos = direct && a.size > 0 ? U.off[0] : 0;
  for (int k = 0; k < L.num_nodes; ++k) {
    N.off.push_back(pos);
    for (int r : L.node_ranks[k]) {
      P.off[r] = pos;
      pos += U.n[r];
    }
    N.n.push_back(pos - N.off.back());
  }
  const Span all = direct ? Span{Buf::kRecv, N.off[0], pos - N.off[0]} : b.tmp(pos);
  if (!direct) {
    for (int64_t& off : P.off) off += all.off;
    for (int64_t& off : N.off) off += all.off;
  }
  const Span own = a.send_alias >= 0 ? U.span(Buf::kRecv, a.rank) : own_block(a, Buf::kSend);
  const int leader = node.ranks[node.root];
  if (a.rank != leader) {
    send_nonempty(b, leader, own);
  } else {
    b.copy(own, P.span(work, a.rank));  // in place and direct: onto itself
    for (int r : node.ranks)
      if (r != a.rank) recv_nonempty(b, r, P.span(work, r));
  }
  if (leaders.active()) {
    CollArgs sub = c.phase_args(Op::kAllgatherv, leaders, N.n[leaders.me]);
    sub.counts = N.n;
    sub.displs = N.off;
    for (int64_t& off : sub.displs) off -= all.off;
    const Algorithm& alg = c.phase_algorithm(/*inter=*/true, &sub);
    // Send is my node's block where the phase's Recv holds it: the copy the
    // flat algorithm starts with is onto itself.
    run_phase(b, leaders, alg, sub, Span{work, N.off[leaders.me], 0}, Span{work, all.off, 0}, -1);
  }
  if (node.active()) c.run_level(b, Op::kBcast, balanced_root(node), false, all.n, all, all, -1);
  if (direct) return;
  for (int j = 0; j < a.size; ++j)
    if (j != a.rank || a.send_alias < 0) b.copy(P.span(Buf::kTmp, j), U.span(Buf::kRecv, j));
}

}  // namespace hiercoll
