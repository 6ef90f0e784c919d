#include "flat/registry.h"

namespace hiercoll {

void add_reduce_scatter_algorithms(std::vector<Algorithm>* out) { (void)out; }

}  // namespace hiercoll
