#include "flat/registry.h"

namespace hiercoll {

void add_allgather_algorithms(std::vector<Algorithm>* out) { (void)out; }

}  // namespace hiercoll
