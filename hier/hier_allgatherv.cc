// Hierarchical allgatherv (the node-aggregated form of Zhu et al.'s
// two-level collectives): each node's ranks send their blocks to the node
// leader, the leaders allgather the node blocks (one message per node and
// step instead of one per rank), and each leader broadcasts the whole
// vector inside its node.  The blocks travel packed in node order
// (hier/node_blocks.h), so a node's blocks are one message whatever the
// user's displacements; every rank then copies them to their places
// (unless they already lie in that order in its receive buffer).  Every rank
// knows every block (MPI gives allgatherv's counts to all), so leaders and
// members agree on every message without asking.  Allgather runs the same
// schedule on its one-unit blocks (algorithms/call_blocks.h).
#include "algorithms/call_blocks.h"
#include "hier/hier_compose.h"
#include "hier/node_blocks.h"

namespace hiercoll {

void build_hier_allgatherv(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const Hierarchy h = c.hierarchy(0);
  const HierGroup& leaders = h.levels[0];
  const HierGroup& node = h.levels[1];
  const Blocks U = all_blocks(a);
  // Every block packed by node (in Recv itself where they lie that way).
  const NodeBlocks packed = pack_by_node(b, L, U, Buf::kRecv);
  const Blocks& P = packed.ranks;
  const Blocks& N = packed.nodes;
  const Span all = packed.all;
  const Buf work = packed.buf;
  const bool direct = work == Buf::kRecv;
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
