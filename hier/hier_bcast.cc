// Hierarchical broadcast (Zhu et al., "Hierarchical collectives in
// MPICH2", Sect. 3.1): among the node leaders, then inside each node (and,
// with the socket level, among the socket leaders of the node, then inside
// each socket).  The root leads its node and socket, so the inter-node
// phase is rooted at the root's node with no extra hop and every node's
// local phases have the same shape whichever rank is root.
//
// "bcast" runs each level with the flat default for its group and size
// (binomial for short messages); "bcast_pipelined" pipelines segments
// through all levels at once (Sect. 3.1's pipelined version; the two-tree
// among nodes, two-tree paper Sect. 2): a leader forwards segment k inside
// its node as soon as it has received it.
#include "hier/hier_compose.h"

namespace hiercoll {

void bcast_levels(const HierCall& c, ScheduleBuilder& b, const Hierarchy& h, size_t first, size_t last) {
  const Span data{Buf::kRecv, 0, c.args.count};
  for (size_t l = first; l < last; ++l) {
    if (!h.levels[l].active()) continue;
    const HierGroup g = balanced_root(h.levels[l]);
    c.run_level(b, Op::kBcast, g, l == 0, c.args.count, data, data, -1);
  }
}

void build_hier_bcast(const HierCall& c, ScheduleBuilder& b) {
  const Hierarchy h = c.hierarchy(c.args.root);
  bcast_levels(c, b, h, 0, h.levels.size());
}

}  // namespace hiercoll
