// The v-variants (gatherv, scatterv, allgatherv, alltoallv): the block
// collectives' generators, which read each rank's block from the call
// (algorithms/call_blocks.h).  The binomial trees of gatherv and scatterv need
// every block's count on every rank (inner ranks forward their subtree's
// blocks), which MPI gives to the root only: kAllCounts makes the runtime
// send the root's counts first.  Not here: the segmented trees of gather
// and scatter; Bruck's alltoall, which forwards blocks whose sizes only
// their source and destination know.
#include "algorithms/allgather.h"
#include "algorithms/alltoall.h"
#include "algorithms/gather_scatter.h"
#include "algorithms/registry.h"

namespace hiercoll {

void add_vector_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kGatherv, "linear", 0, build_gather_linear});
  out->push_back({Op::kGatherv, "binomial", kAllCounts, build_gather_binomial});
  out->push_back({Op::kScatterv, "linear", 0, build_scatter_linear});
  out->push_back({Op::kScatterv, "binomial", kAllCounts, build_scatter_binomial});
  out->push_back({Op::kAllgatherv, "ring", 0, build_allgather_ring});
  out->push_back({Op::kAllgatherv, "bruck", 0, build_allgather_bruck});
  out->push_back({Op::kAllgatherv, "recursive_doubling", 0, build_allgather_recursive_doubling});
  out->push_back({Op::kAlltoallv, "pairwise", 0, build_alltoall_pairwise});
  out->push_back({Op::kAlltoallv, "scattered", 0, build_alltoall_scattered});
}

}  // namespace hiercoll
