// Pipelined reductions along trees of shifted ranks (algorithms/trees.h) end at
// a collector.  The trees combine the other ranks in the order collector+1,
// ..., p-1, 0, ..., collector-1, which is rank order when the collector is
// rank 0 or p-1, or when the operation commutes; then the collector is the
// root.  Otherwise (a non-commutative operation and 0 < root < p-1) rank
// p-1 collects and passes each finished block on to the root.
#pragma once

#include <vector>

#include "algorithms/trees.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

int reduce_collector(const CollArgs& a);
// Virtual rank of `rank` in trees ending at the collector (virtual p-1).
inline int collector_virtual(const CollArgs& a, int collector) { return (a.rank - collector - 1 + 2 * a.size) % a.size; }
// Rank 0 as collector precedes the ranks of its trees: its own data must go
// first, so its child becomes the upper one.
void collector_zero_own_first(const CollArgs& a, int collector, LocalTree* collector_tree);
// Where the collector keeps the result (Recv when it is the root).
inline Buf collector_result_buf(const CollArgs& a, int collector) { return collector == a.root ? Buf::kRecv : Buf::kTmp; }
// The collector sends its result blocks (tree_reduce's) to the root, which
// receives them into Recv, block by block; nothing when it is the root.
void forward_to_root(const CollArgs& a, int collector, const TreePipeline& pl,
                     const std::vector<std::vector<Span>>& result, ScheduleBuilder& b);

}  // namespace hiercoll
