#include "algorithms/barrier.h"
#include "algorithms/registry.h"

namespace hiercoll {

void add_barrier_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kBarrier, "dissemination", 0, build_barrier_dissemination});
  out->push_back({Op::kBarrier, "recursive_doubling", 0, build_barrier_recursive_doubling});
  out->push_back({Op::kBarrier, "tournament", 0, build_barrier_tournament});
  out->push_back({Op::kBarrier, "ring", 0, build_barrier_ring});
}

}  // namespace hiercoll
