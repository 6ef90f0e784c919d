#include "flat/reduce.h"
#include "flat/registry.h"

namespace hiercoll {

void add_reduce_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kReduce, "binomial", 0, build_reduce_binomial});
  out->push_back({Op::kReduce, "rabenseifner", 0, build_reduce_rabenseifner});
  out->push_back({Op::kReduce, "pipelined_binary_tree", 0, build_reduce_pipelined_tree, true});
  out->push_back({Op::kReduce, "twotree", 0, build_reduce_twotree, true});
  out->push_back({Op::kReduce, "chain", 0, build_reduce_chain, true});
  out->push_back({Op::kReduce, "gather_reduce", 0, build_reduce_gather});
}

}  // namespace hiercoll
