#include "flat/gather_scatter.h"
#include "flat/registry.h"

namespace hiercoll {

void add_gather_scatter_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kGather, "binomial", 0, build_gather_binomial});
  out->push_back({Op::kScatter, "binomial", 0, build_scatter_binomial});
}

}  // namespace hiercoll
