// Reduce-scatter (reduce_scatter_block too) through one leader per node, on
// any layout (Zhu et al.'s two levels for a block reduction): the whole
// vector reduced inside each node to its leader; among the leaders a
// reduce-scatter of the node bundles (node k's ranks' blocks), which leaves
// each leader its node's blocks reduced over all nodes; the leader sends
// each member its block.  Between nodes one message per node and step
// instead of one per rank: for short vectors, where latency is the cost
// (the columns composition moves long ones).  Node k's blocks are one span
// where node ranks are consecutive; elsewhere the leader packs its node
// partial in node order first.  The phases combine in rank order inside a
// node and in node order between them, which is rank order when node ranks
// are consecutive (non-commutative operations need that).
#include "algorithms/blocks.h"
#include "hier/hier_compose.h"
#include "hier/node_blocks.h"

namespace hiercoll {

void build_hier_reduce_scatter(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const Hierarchy h = c.hierarchy(0);
  const HierGroup& leaders = h.levels[0];
  const HierGroup node = a.commutative ? balanced_root(h.levels[1]) : h.levels[1];
  const Blocks U = blocks_of_sizes(a.counts);
  const int64_t total = U.total();
  const Span mine{Buf::kRecv, 0, a.counts[a.rank]};
  const int leader = node.ranks[node.root];
  const int k = L.node_of[a.rank];

  Span partial{Buf::kSend, 0, total};
  if (node.active()) {
    const Span sum = a.rank == leader ? b.tmp(total) : Span{Buf::kTmp, 0, 0};
    c.run_level(b, Op::kReduce, node, /*inter=*/false, total, partial, sum, a.send_alias);
    if (a.rank == leader) partial = sum;
  }
  if (a.rank != leader) {
    recv_nonempty(b, leader, mine);
    return;
  }
  // My node's partial in node order (rank order where that is node order).
  const NodeBlocks nb = L.consecutive ? node_order(L, U, partial.buf, partial.off)
                                      : node_order(L, U, Buf::kTmp, b.tmp(total).off);
  if (!L.consecutive) {
    for (int j = 0; j < a.size; ++j)
      b.copy(Span{partial.buf, partial.off + U.off[j], U.n[j]}, nb.ranks.span(Buf::kTmp, j));
  }
  const Span result = b.tmp(nb.nodes.n[k]);
  CollArgs sub = c.phase_args(Op::kReduceScatter, leaders, nb.nodes.n[k]);
  sub.counts = nb.nodes.n;
  const Algorithm& alg = c.phase_algorithm(/*inter=*/true, &sub);
  run_phase(b, leaders, alg, sub, nb.all, result, a.send_alias);
  // Member r's block: its place in the node's bundle.
  for (int r : L.node_ranks[k]) {
    const Span block{Buf::kTmp, result.off + nb.ranks.off[r] - nb.nodes.off[k], U.n[r]};
    if (r == a.rank)
      b.copy(block, mine);
    else
      send_nonempty(b, r, block);
  }
}

}  // namespace hiercoll
