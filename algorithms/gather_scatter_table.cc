#include "algorithms/gather_scatter.h"
#include "algorithms/registry.h"

namespace hiercoll {

void add_gather_scatter_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kGather, "binomial", 0, build_gather_binomial});
  out->push_back({Op::kScatter, "binomial", 0, build_scatter_binomial});
  out->push_back({Op::kGather, "linear", 0, build_gather_linear});
  out->push_back({Op::kScatter, "linear", 0, build_scatter_linear});
  out->push_back({Op::kGather, "chain", 0, build_gather_chain, true});
  out->push_back({Op::kScatter, "chain", 0, build_scatter_chain, true});
  out->push_back({Op::kGather, "binary_tree", 0, build_gather_binary_tree, true});
  out->push_back({Op::kScatter, "binary_tree", 0, build_scatter_binary_tree, true});
  out->push_back({Op::kGather, "linear_segmented", 0, build_gather_linear_segmented, true});
  out->push_back({Op::kScatter, "linear_segmented", 0, build_scatter_linear_segmented, true});
}

}  // namespace hiercoll
