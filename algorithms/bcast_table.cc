#include "algorithms/bcast.h"
#include "algorithms/registry.h"

namespace hiercoll {

void add_bcast_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kBcast, "binomial", 0, build_bcast_binomial});
  out->push_back({Op::kBcast, "scatter_recursive_doubling", 0, build_bcast_scatter_recursive_doubling});
  out->push_back({Op::kBcast, "scatter_ring", 0, build_bcast_scatter_ring});
  out->push_back({Op::kBcast, "chain", 0, build_bcast_chain, true});
  out->push_back({Op::kBcast, "pipelined_binary_tree", 0, build_bcast_pipelined_tree, true});
  out->push_back({Op::kBcast, "twotree", 0, build_bcast_twotree, true});
  out->push_back({Op::kBcast, "linear", 0, build_bcast_linear, true});
  out->push_back({Op::kBcast, "binomial_segmented", 0, build_bcast_binomial_segmented, true});
}

}  // namespace hiercoll
