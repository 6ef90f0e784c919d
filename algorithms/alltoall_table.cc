#include "algorithms/alltoall.h"
#include "algorithms/registry.h"

namespace hiercoll {

void add_alltoall_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kAlltoall, "bruck", 0, build_alltoall_bruck});
  out->push_back({Op::kAlltoall, "scattered", 0, build_alltoall_scattered});
  out->push_back({Op::kAlltoall, "pairwise", 0, build_alltoall_pairwise});
}

}  // namespace hiercoll
