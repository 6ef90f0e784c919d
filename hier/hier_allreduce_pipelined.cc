// Pipelined hierarchical allreduce for long vectors on uneven nodes: the
// pipelined hierarchical reduce to rank 0 followed by the pipelined
// hierarchical broadcast from it (Zhu et al., Sects. 3.1-3.3), all phases
// in one segment size, so segment k is broadcast down while segment k+1 is
// still being reduced up.
#include "hier/hier_compose.h"

namespace hiercoll {

void build_hier_allreduce_pipelined(const HierCall& c, ScheduleBuilder& b) {
  const Hierarchy h = c.hierarchy(0);
  const Span result{Buf::kRecv, 0, c.args.count};
  Span partial{Buf::kSend, 0, c.args.count};
  reduce_levels(c, b, h, 0, h.levels.size(), &partial, /*result_in_recv=*/true);
  if (c.args.rank == 0 && partial.buf != Buf::kRecv) b.copy(partial, result);
  bcast_levels(c, b, h, 0, h.levels.size());
}

}  // namespace hiercoll
