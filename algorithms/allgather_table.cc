#include "algorithms/allgather.h"
#include "algorithms/registry.h"

namespace hiercoll {

void add_allgather_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kAllgather, "recursive_doubling", 0, build_allgather_recursive_doubling});
  out->push_back({Op::kAllgather, "bruck", 0, build_allgather_bruck});
  out->push_back({Op::kAllgather, "ring", 0, build_allgather_ring});
  out->push_back({Op::kAllgather, "gather_bcast", 0, build_allgather_gather_bcast});
}

}  // namespace hiercoll
