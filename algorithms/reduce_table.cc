#include "algorithms/reduce.h"
#include "algorithms/registry.h"

namespace hiercoll {

// Every reduce algorithm keeps rank order in its reductions (see
// algorithms/reduce.h), so none is kCommutativeOnly (that is for algorithms that
// combine out of rank order, as reduce_scatter's recursive_halving).
void add_reduce_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kReduce, "binomial", 0, build_reduce_binomial});
  out->push_back({Op::kReduce, "rabenseifner", 0, build_reduce_rabenseifner});
  out->push_back({Op::kReduce, "binary_blocks", 0, build_reduce_binary_blocks});
  out->push_back({Op::kReduce, "ring", 0, build_reduce_ring});
  out->push_back({Op::kReduce, "pipelined_binary_tree", 0, build_reduce_pipelined_tree, true});
  out->push_back({Op::kReduce, "twotree", 0, build_reduce_twotree, true});
  out->push_back({Op::kReduce, "chain", 0, build_reduce_chain, true});
  out->push_back({Op::kReduce, "gather_reduce", 0, build_reduce_gather});
  out->push_back({Op::kReduce, "binomial_segmented", 0, build_reduce_binomial_segmented, true});
}

}  // namespace hiercoll
