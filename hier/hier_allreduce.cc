// Hierarchical allreduce (Zhu et al., Sect. 3.3): reduce inside each node
// to its master, allreduce among the masters (the flat default: recursive
// doubling for short vectors, Rabenseifner for long ones), broadcast inside
// each node.  With the socket level the local phases go socket by socket.
#include "hier/hier_compose.h"

namespace hiercoll {

void build_hier_allreduce(const HierCall& c, ScheduleBuilder& b) {
  const Hierarchy h = c.hierarchy(0);
  const int64_t n = c.args.count;
  const Span result{Buf::kRecv, 0, n};
  Span partial{Buf::kSend, 0, n};
  reduce_levels(c, b, h, 1, h.levels.size(), &partial, /*result_in_recv=*/true);
  const HierGroup& top = h.levels[0];
  if (top.active()) {
    c.run_level(b, Op::kAllreduce, top, true, n, partial, result, c.args.send_alias);
  } else if (top.me >= 0) {
    b.copy(partial, result);  // one node: its reduction is the result
  }
  bcast_levels(c, b, h, 1, h.levels.size());
}

}  // namespace hiercoll
