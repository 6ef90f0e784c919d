// Broadcast algorithms.  Data: Recv[0, count) on every rank, the root's is
// the input (see schedule/coll_args.h).
#pragma once

#include "algorithms/allgather.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

// Sequential tree (Vadhiyar, Fagg, Dongarra §2.1): the root sends every
// segment of seg_units to every other rank in turn.
void build_bcast_linear(const CollArgs& a, ScheduleBuilder& b);

// Binomial tree (MPICH): ceil(log2 p) rounds, whole message each round.
void build_bcast_binomial(const CollArgs& a, ScheduleBuilder& b);
// The same tree segmented (Vadhiyar, Fagg, Dongarra §2, their tables'
// most frequent winner): each segment of seg_units goes down the binomial
// tree in turn, a rank forwarding segment k while segment k+1 comes in
// (build_segmentwise, algorithms/trees.h).
void build_bcast_binomial_segmented(const CollArgs& a, ScheduleBuilder& b);

// Van de Geijn (Thakur et al. §4.2): binomial scatter of p pieces, then an
// allgather by recursive doubling or by a ring.
void build_bcast_scatter_recursive_doubling(const CollArgs& a, ScheduleBuilder& b);
void build_bcast_scatter_ring(const CollArgs& a, ScheduleBuilder& b);
// Their shared schedule: the scatter, then `allgather` of the pieces.
void bcast_scatter_allgather(const CollArgs& a, ScheduleBuilder& b, AllgatherBlocksFn allgather);

// Pipelined over trees (two-tree paper, Sect. 2; see algorithms/trees.h), in
// segments of seg_units: a linear pipeline, the in-order binary tree rooted
// at the root, and the two-tree (half of the data down each of two trees).
void build_bcast_chain(const CollArgs& a, ScheduleBuilder& b);
void build_bcast_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b);
void build_bcast_twotree(const CollArgs& a, ScheduleBuilder& b);

}  // namespace hiercoll
