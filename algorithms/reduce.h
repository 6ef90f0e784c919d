// Reduce algorithms.  Data: Send[0, count) input on every rank; Recv[0,
// count) result at the root only (non-roots' Recv is never touched; see
// schedule/coll_args.h).
#pragma once

#include "algorithms/blocks.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

// Binomial tree (Thakur et al. §4.5, MPICH's order): ceil(lg p) rounds,
// whole vector each round; rank order kept for non-commutative operations.
void build_reduce_binomial(const CollArgs& a, ScheduleBuilder& b);
// The same tree segmented (Vadhiyar, Fagg, Dongarra §2): each segment of
// seg_units is reduced up the binomial tree in turn, so a rank combines
// and forwards segment k while segment k+1 comes in (build_segmentwise,
// algorithms/trees.h); rank order kept as in the unsegmented one.
void build_reduce_binomial_segmented(const CollArgs& a, ScheduleBuilder& b);
// Rabenseifner (Thakur et al. §5.1): reduce-scatter by recursive vector
// halving and distance doubling, then a binomial gather to the root.  The
// distance-doubling order keeps rank order, so any operation works.
void build_reduce_rabenseifner(const CollArgs& a, ScheduleBuilder& b);
// Binary blocks (Thakur et al. §5.2): the reduce-scatter part of the
// binary-blocks allreduce (algorithms/binary_blocks.h), then a binomial gather of
// the largest block's pieces to the root (a root outside that block takes
// rank 0's place).  Rank order kept, so any operation works.
void build_reduce_binary_blocks(const CollArgs& a, ScheduleBuilder& b);
// Ring (Thakur et al. §5.3): pairwise-exchange reduce-scatter (§4.4, rank
// order kept, so any operation works), then each rank sends its block of
// the result to the root.
void build_reduce_ring(const CollArgs& a, ScheduleBuilder& b);
// Where the algorithms that reduce whole vectors in pieces accumulate: the
// root in Recv[0, count), others in fresh scratch; either starts as a copy
// of the input (in place at the root: already there).
Span reduce_accumulator(const CollArgs& a, ScheduleBuilder& b);

// Pipelined over in-order trees (two-tree paper, Sects. 2, 2.2; see
// algorithms/trees.h), in segments of seg_units; rank order kept for any root.
void build_reduce_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b);
void build_reduce_twotree(const CollArgs& a, ScheduleBuilder& b);
// Gather of all vectors to the root, which reduces them in rank order
// (Vadhiyar et al., Table 1; short vectors).
void build_reduce_gather_reduce(const CollArgs& a, ScheduleBuilder& b);
// p vectors of n units, one per rank, side by side in fresh scratch
// (Buf::kTmp); and dst = vector 0 op vector 1 op ... op vector p-1 of them.
Blocks scratch_vectors(ScheduleBuilder& b, int p, int64_t n);
void reduce_blocks_in_rank_order(ScheduleBuilder& b, const Blocks& L, Buf buf, Span dst);

// The linear pipeline (Vadhiyar et al. §2.2; the chain bcast reversed), in
// segments of seg_units; rank order kept for any root.
void build_reduce_chain(const CollArgs& a, ScheduleBuilder& b);

}  // namespace hiercoll
