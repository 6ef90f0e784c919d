#include "flat/bcast.h"
#include "flat/registry.h"

namespace hiercoll {

void add_bcast_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kBcast, "binomial", 0, build_bcast_binomial});
}

}  // namespace hiercoll
