// Reduce-scatter algorithms (Thakur, Rabenseifner, Gropp §4.4).  Data: Send
// holds sum(counts) units, block j (counts[j] units, in rank order) for
// rank j; the result goes to Recv[0, counts[rank]).  In place (send_alias =
// 0) Recv holds the whole input and only Recv[0, counts[rank]) is defined
// afterwards.  Counts may be irregular and zero.
#pragma once

#include "algorithms/blocks.h"
#include "algorithms/group.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

// Pairwise exchange (§4.4, long messages), the primitive: input block j of
// member j is L.span(in, j) (offsets absolute in `in`); in step i member me
// sends block me + i to me + i and receives its own block from me - i.
// The result (reduced in rank order, so non-commutative operations work)
// goes to `out`, which may be the member's own input block but must not
// overlap any other input block.
void reduce_scatter_pairwise_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf in, Span out);

// Recursive halving (§4.4, commutative operations), with the paper's
// non-power-of-two fold.
void build_reduce_scatter_recursive_halving(const CollArgs& a, ScheduleBuilder& b);
// Recursive doubling (§4.4, any operation), with MPICH's non-power-of-two
// forwarding inside subtrees.
void build_reduce_scatter_recursive_doubling(const CollArgs& a, ScheduleBuilder& b);
// Pairwise exchange (§4.4).
void build_reduce_scatter_pairwise(const CollArgs& a, ScheduleBuilder& b);

}  // namespace hiercoll
