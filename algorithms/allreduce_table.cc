#include "algorithms/allreduce.h"
#include "algorithms/registry.h"

namespace hiercoll {

// Every allreduce algorithm keeps rank order in its reductions (see
// algorithms/allreduce.h), so none is restricted.
void add_allreduce_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kAllreduce, "recursive_doubling", 0, build_allreduce_recursive_doubling});
  out->push_back({Op::kAllreduce, "rabenseifner", 0, build_allreduce_rabenseifner});
  out->push_back({Op::kAllreduce, "binary_blocks", 0, build_allreduce_binary_blocks});
  out->push_back({Op::kAllreduce, "ring", 0, build_allreduce_ring});
  out->push_back({Op::kAllreduce, "reduce_bcast", 0, build_allreduce_reduce_bcast});
  out->push_back({Op::kAllreduce, "allgather_reduce", 0, build_allreduce_allgather_reduce});
  out->push_back({Op::kAllreduce, "chain", 0, build_allreduce_chain, true});
  out->push_back({Op::kAllreduce, "pipelined_binary_tree", 0, build_allreduce_pipelined_tree, true});
}

}  // namespace hiercoll
