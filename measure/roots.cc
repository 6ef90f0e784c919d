#include "measure/roots.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace hcbench {

std::vector<int> choose_roots(const std::string& which, const std::vector<int>& node_of) {
  const int size = static_cast<int>(node_of.size());
  std::vector<int> roots;
  if (which == "all" || (which == "auto" && size <= 16)) {
    for (int r = 0; r < size; ++r) roots.push_back(r);
    return roots;
  }
  if (which == "auto" || which == "sample") {
    const int nodes = size ? *std::max_element(node_of.begin(), node_of.end()) + 1 : 0;
    for (int n = 0; n < nodes; ++n) {
      int lo = -1, hi = -1;
      for (int r = 0; r < size; ++r)
        if (node_of[r] == n) {
          if (lo < 0) lo = r;
          hi = r;
        }
      roots.push_back(lo);
      if (hi != lo) roots.push_back(hi);
    }
  } else {
    std::istringstream in(which);
    std::string item;
    while (std::getline(in, item, ',')) {
      const int r = std::atoi(item.c_str());
      if (r >= 0 && r < size) roots.push_back(r);
    }
  }
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  if (roots.empty()) roots.push_back(0);
  return roots;
}

}  // namespace hcbench
