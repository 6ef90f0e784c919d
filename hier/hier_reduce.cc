// Hierarchical reduce (Zhu et al., Sect. 3.2): inside each node (socket by
// socket first, with the socket level) to the node's leader, then among
// the node leaders to the root, which leads its own node.  "reduce" runs
// each level with the flat default; "reduce_pipelined" pipelines segments
// through the levels (the inter-node phase a pipelined binary tree or the
// two-tree, two-tree paper Sect. 2.2), so segment k goes up between nodes
// while segment k+1 is still being reduced inside them.
//
// Order: groups list their members in rank order (nodes by lowest rank,
// sockets likewise) and every flat reduce keeps rank order, so with
// consecutive node ranks (the composition's need for non-commutative
// operations) the result is MPI's rank-order reduction.
#include "hier/hier_compose.h"

namespace hiercoll {

void reduce_levels(const HierCall& c, ScheduleBuilder& b, const Hierarchy& h, size_t first, size_t last,
                   Span* partial, bool result_in_recv) {
  const int64_t n = c.args.count;
  for (size_t l = last; l-- > first;) {
    if (!h.levels[l].active()) continue;
    // Commutative: any member order, so the same shape for every root.
    const HierGroup g = c.args.commutative ? balanced_root(h.levels[l]) : h.levels[l];
    const bool collects = g.me == g.root;
    // Members that do not collect never touch the phase's Recv.
    Span out{Buf::kTmp, 0, 0};
    if (collects) out = result_in_recv ? Span{Buf::kRecv, 0, n} : b.tmp(n);
    c.run_level(b, Op::kReduce, g, l == 0, n, *partial, out, c.args.send_alias);
    if (collects) *partial = out;
  }
}

void build_hier_reduce(const HierCall& c, ScheduleBuilder& b) {
  const Hierarchy h = c.hierarchy(c.args.root);
  const bool root = c.args.rank == c.args.root;
  Span partial{Buf::kSend, 0, c.args.count};
  reduce_levels(c, b, h, 0, h.levels.size(), &partial, root);
  if (root && partial.buf != Buf::kRecv) b.copy(partial, Span{Buf::kRecv, 0, c.args.count});
}

}  // namespace hiercoll
