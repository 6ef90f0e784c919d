// Where rooted operations are measured, from a layout's node of every rank.
#pragma once

#include <string>
#include <vector>

namespace hcbench {

// The roots of a rooted operation: all ranks when `which` is "all" (or
// "auto" with at most 16 ranks); for "sample" (or "auto" above 16 ranks)
// the lowest rank (the master) and the highest rank of every node; or the
// listed ranks (those outside the communicator are dropped).
std::vector<int> choose_roots(const std::string& which, const std::vector<int>& node_of);

}  // namespace hcbench
