// Allreduce algorithms (Thakur, Rabenseifner, Gropp §4.5, §5).  Data:
// Send[0, count) input, Recv[0, count) result; in place, the input is in
// Recv (send_alias = 0).  All of them keep rank order in every reduction,
// so non-commutative operations work with each.
#pragma once

#include "algorithms/registry.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

// Recursive doubling (§4.5), with MPICH's non-power-of-two fold.
void build_allreduce_recursive_doubling(const CollArgs& a, ScheduleBuilder& b);
// Vector halving / distance doubling reduce-scatter, then vector doubling /
// distance halving allgather (§5.1, Rabenseifner).
void build_allreduce_rabenseifner(const CollArgs& a, ScheduleBuilder& b);
// Binary blocks (§5.2).
void build_allreduce_binary_blocks(const CollArgs& a, ScheduleBuilder& b);
// Pairwise-exchange reduce-scatter, then ring allgather (§5.3).
void build_allreduce_ring(const CollArgs& a, ScheduleBuilder& b);
// Binomial reduce to rank 0, then binomial broadcast (§5, "binomial tree").
void build_allreduce_reduce_bcast(const CollArgs& a, ScheduleBuilder& b);
// Reduce, then broadcast, both pipelined in segments of seg_units
// (Vadhiyar, Fagg, Dongarra, Table 1): along the chain, or along the
// in-order binary tree.
void build_allreduce_chain(const CollArgs& a, ScheduleBuilder& b);
void build_allreduce_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b);
// Allgather, then a local reduction in rank order on every rank (Vadhiyar,
// Fagg, Dongarra, Table 1; short vectors).
void build_allreduce_allgather_reduce(const CollArgs& a, ScheduleBuilder& b);

// Reduce to `root` with `reduce`, then broadcast from it with `bcast`: the
// schedule of reduce_bcast, chain and pipelined_binary_tree
// (allreduce_reduce_bcast.cc).
void reduce_then_bcast(const CollArgs& a, ScheduleBuilder& b, int root, BuildFn reduce, BuildFn bcast);

}  // namespace hiercoll
