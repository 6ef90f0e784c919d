// Scan and exscan algorithms.  Data: Send[0, count) input; Recv[0, count)
// result (exscan: rank 0's Recv is left untouched); see schedule/coll_args.h.
#pragma once

#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

// Recursive doubling (MPICH): ceil(lg p) rounds of pairwise exchanges of
// partial reductions; rank order kept for non-commutative operations.
void build_scan_recursive_doubling(const CollArgs& a, ScheduleBuilder& b);
void build_exscan_recursive_doubling(const CollArgs& a, ScheduleBuilder& b);

// Pipelined up and down phases over in-order trees (two-tree paper, Sect.
// 2.3; see algorithms/trees.h): one balanced tree, or the two-tree with half of
// the data in each; rank order kept.
void build_scan_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b);
void build_exscan_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b);
void build_scan_twotree(const CollArgs& a, ScheduleBuilder& b);
// Linear pipeline 0 -> 1 -> ... -> p-1, up phase only; rank order kept.
void build_scan_chain(const CollArgs& a, ScheduleBuilder& b);
void build_exscan_chain(const CollArgs& a, ScheduleBuilder& b);
void build_exscan_twotree(const CollArgs& a, ScheduleBuilder& b);

}  // namespace hiercoll
