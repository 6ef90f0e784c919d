#include "flat/registry.h"

namespace hiercoll {

void add_allreduce_algorithms(std::vector<Algorithm>* out) { (void)out; }

}  // namespace hiercoll
