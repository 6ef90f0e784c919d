#include "algorithms/reduce_scatter.h"
#include "algorithms/registry.h"

namespace hiercoll {

void add_reduce_scatter_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kReduceScatter, "recursive_halving", kCommutativeOnly, build_reduce_scatter_recursive_halving});
  out->push_back({Op::kReduceScatter, "recursive_doubling", 0, build_reduce_scatter_recursive_doubling});
  out->push_back({Op::kReduceScatter, "pairwise", 0, build_reduce_scatter_pairwise});
}

}  // namespace hiercoll
