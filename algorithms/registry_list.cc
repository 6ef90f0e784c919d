// The registry's one list: every flat algorithm with its operation, name,
// restrictions (what it requires of the call), whether its schedule is cut
// into segments, its generator, and the file that holds the generator.
// Files are named <op>_<name>.cc; where gather and scatter mirror each other
// they share gather_scatter_<name>.cc (linear_segmented with linear),
// exscan lives with scan, and each v-variant runs its block collective's
// generator.  The order is the decision's tie-break (decide/decide.h) and
// the listing's (`./hiercoll algorithms`).
#include "algorithms/allgather.h"
#include "algorithms/allreduce.h"
#include "algorithms/alltoall.h"
#include "algorithms/barrier.h"
#include "algorithms/bcast.h"
#include "algorithms/gather_scatter.h"
#include "algorithms/reduce.h"
#include "algorithms/reduce_scatter.h"
#include "algorithms/registry.h"
#include "algorithms/scan.h"

namespace hiercoll {

namespace {

const Algorithm kAlgorithms[] = {
    {Op::kBcast, "binomial", 0, build_bcast_binomial, false, "bcast_binomial.cc"},
    {Op::kBcast, "scatter_recursive_doubling", 0, build_bcast_scatter_recursive_doubling, false, "bcast_scatter_recursive_doubling.cc"},
    {Op::kBcast, "scatter_ring", 0, build_bcast_scatter_ring, false, "bcast_scatter_ring.cc"},
    {Op::kBcast, "chain", 0, build_bcast_chain, true, "bcast_chain.cc"},
    {Op::kBcast, "pipelined_binary_tree", 0, build_bcast_pipelined_binary_tree, true, "bcast_pipelined_binary_tree.cc"},
    {Op::kBcast, "twotree", 0, build_bcast_twotree, true, "bcast_twotree.cc"},
    {Op::kBcast, "linear", 0, build_bcast_linear, true, "bcast_linear.cc"},
    {Op::kBcast, "binomial_segmented", 0, build_bcast_binomial_segmented, true, "bcast_binomial_segmented.cc"},
    // Every reduce and allreduce algorithm combines in rank order, so none
    // is commutative-only (that is for algorithms that combine out of rank
    // order, as reduce_scatter's recursive_halving).
    {Op::kReduce, "binomial", 0, build_reduce_binomial, false, "reduce_binomial.cc"},
    {Op::kReduce, "rabenseifner", 0, build_reduce_rabenseifner, false, "reduce_rabenseifner.cc"},
    {Op::kReduce, "binary_blocks", 0, build_reduce_binary_blocks, false, "reduce_binary_blocks.cc"},
    {Op::kReduce, "ring", 0, build_reduce_ring, false, "reduce_ring.cc"},
    {Op::kReduce, "pipelined_binary_tree", 0, build_reduce_pipelined_binary_tree, true, "reduce_pipelined_binary_tree.cc"},
    {Op::kReduce, "twotree", 0, build_reduce_twotree, true, "reduce_twotree.cc"},
    {Op::kReduce, "chain", 0, build_reduce_chain, true, "reduce_chain.cc"},
    {Op::kReduce, "gather_reduce", 0, build_reduce_gather_reduce, false, "reduce_gather_reduce.cc"},
    {Op::kReduce, "binomial_segmented", 0, build_reduce_binomial_segmented, true, "reduce_binomial_segmented.cc"},
    {Op::kAllreduce, "recursive_doubling", 0, build_allreduce_recursive_doubling, false, "allreduce_recursive_doubling.cc"},
    {Op::kAllreduce, "rabenseifner", 0, build_allreduce_rabenseifner, false, "allreduce_rabenseifner.cc"},
    {Op::kAllreduce, "binary_blocks", 0, build_allreduce_binary_blocks, false, "allreduce_binary_blocks.cc"},
    {Op::kAllreduce, "ring", 0, build_allreduce_ring, false, "allreduce_ring.cc"},
    {Op::kAllreduce, "reduce_bcast", 0, build_allreduce_reduce_bcast, false, "allreduce_reduce_bcast.cc"},
    {Op::kAllreduce, "allgather_reduce", 0, build_allreduce_allgather_reduce, false, "allreduce_allgather_reduce.cc"},
    {Op::kAllreduce, "chain", 0, build_allreduce_chain, true, "allreduce_chain.cc"},
    {Op::kAllreduce, "pipelined_binary_tree", 0, build_allreduce_pipelined_binary_tree, true, "allreduce_pipelined_binary_tree.cc"},
    {Op::kAllgather, "recursive_doubling", 0, build_allgather_recursive_doubling, false, "allgather_recursive_doubling.cc"},
    {Op::kAllgather, "bruck", 0, build_allgather_bruck, false, "allgather_bruck.cc"},
    {Op::kAllgather, "ring", 0, build_allgather_ring, false, "allgather_ring.cc"},
    {Op::kAllgather, "gather_bcast", 0, build_allgather_gather_bcast, false, "allgather_gather_bcast.cc"},
    {Op::kReduceScatter, "recursive_halving", kCommutativeOnly, build_reduce_scatter_recursive_halving, false, "reduce_scatter_recursive_halving.cc"},
    {Op::kReduceScatter, "recursive_doubling", 0, build_reduce_scatter_recursive_doubling, false, "reduce_scatter_recursive_doubling.cc"},
    {Op::kReduceScatter, "pairwise", 0, build_reduce_scatter_pairwise, false, "reduce_scatter_pairwise.cc"},
    {Op::kAlltoall, "bruck", 0, build_alltoall_bruck, false, "alltoall_bruck.cc"},
    {Op::kAlltoall, "scattered", 0, build_alltoall_scattered, false, "alltoall_scattered.cc"},
    {Op::kAlltoall, "pairwise", 0, build_alltoall_pairwise, false, "alltoall_pairwise.cc"},
    {Op::kScan, "recursive_doubling", 0, build_scan_recursive_doubling, false, "scan_recursive_doubling.cc"},
    {Op::kExscan, "recursive_doubling", 0, build_exscan_recursive_doubling, false, "scan_recursive_doubling.cc"},
    {Op::kScan, "pipelined_binary_tree", 0, build_scan_pipelined_binary_tree, true, "scan_pipelined_binary_tree.cc"},
    {Op::kExscan, "pipelined_binary_tree", 0, build_exscan_pipelined_binary_tree, true, "scan_pipelined_binary_tree.cc"},
    {Op::kScan, "twotree", 0, build_scan_twotree, true, "scan_twotree.cc"},
    {Op::kExscan, "twotree", 0, build_exscan_twotree, true, "scan_twotree.cc"},
    {Op::kScan, "chain", 0, build_scan_chain, true, "scan_chain.cc"},
    {Op::kExscan, "chain", 0, build_exscan_chain, true, "scan_chain.cc"},
    {Op::kBarrier, "dissemination", 0, build_barrier_dissemination, false, "barrier_dissemination.cc"},
    {Op::kBarrier, "recursive_doubling", 0, build_barrier_recursive_doubling, false, "barrier_recursive_doubling.cc"},
    {Op::kBarrier, "tournament", 0, build_barrier_tournament, false, "barrier_tournament.cc"},
    {Op::kBarrier, "ring", 0, build_barrier_ring, false, "barrier_ring.cc"},
    {Op::kGather, "binomial", 0, build_gather_binomial, false, "gather_binomial.cc"},
    {Op::kScatter, "binomial", 0, build_scatter_binomial, false, "scatter_binomial.cc"},
    {Op::kGather, "linear", 0, build_gather_linear, false, "gather_scatter_linear.cc"},
    {Op::kScatter, "linear", 0, build_scatter_linear, false, "gather_scatter_linear.cc"},
    {Op::kGather, "chain", 0, build_gather_chain, true, "gather_scatter_chain.cc"},
    {Op::kScatter, "chain", 0, build_scatter_chain, true, "gather_scatter_chain.cc"},
    {Op::kGather, "binary_tree", 0, build_gather_binary_tree, true, "gather_scatter_binary_tree.cc"},
    {Op::kScatter, "binary_tree", 0, build_scatter_binary_tree, true, "gather_scatter_binary_tree.cc"},
    {Op::kGather, "linear_segmented", 0, build_gather_linear_segmented, true, "gather_scatter_linear.cc"},
    {Op::kScatter, "linear_segmented", 0, build_scatter_linear_segmented, true, "gather_scatter_linear.cc"},
    // The v-variants run their block collective's generator, which reads
    // each rank's block from the call (algorithms/call_blocks.h).  The
    // binomial trees of gatherv and scatterv need every block's count on
    // every rank (inner ranks forward their subtrees' blocks), which MPI gives
    // to the root only: all-counts makes the runtime send the root's counts
    // first.  Not here: the segmented trees of gather and scatter, and
    // Bruck's alltoall, which forwards blocks whose sizes only their source
    // and destination know.
    {Op::kGatherv, "linear", 0, build_gather_linear, false, "gather_scatter_linear.cc"},
    {Op::kGatherv, "binomial", kAllCounts, build_gather_binomial, false, "gather_binomial.cc"},
    {Op::kScatterv, "linear", 0, build_scatter_linear, false, "gather_scatter_linear.cc"},
    {Op::kScatterv, "binomial", kAllCounts, build_scatter_binomial, false, "scatter_binomial.cc"},
    {Op::kAllgatherv, "ring", 0, build_allgather_ring, false, "allgather_ring.cc"},
    {Op::kAllgatherv, "bruck", 0, build_allgather_bruck, false, "allgather_bruck.cc"},
    {Op::kAllgatherv, "recursive_doubling", 0, build_allgather_recursive_doubling, false, "allgather_recursive_doubling.cc"},
    {Op::kAlltoallv, "pairwise", 0, build_alltoall_pairwise, false, "alltoall_pairwise.cc"},
    {Op::kAlltoallv, "scattered", 0, build_alltoall_scattered, false, "alltoall_scattered.cc"},
};

}  // namespace

const RegistryTable<Algorithm>& algorithm_table() {
  static const RegistryTable<Algorithm> table(kAlgorithms);
  return table;
}

}  // namespace hiercoll
