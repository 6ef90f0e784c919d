#include "tests/support/vector_layout.h"

#include <algorithm>

namespace hiercoll::testing {

int64_t VectorLayout::block(Op op, int from, int to) const {
  if (op != Op::kAlltoallv) to = 0;
  if (!counts.empty() && op != Op::kAlltoallv) return counts[from];
  if (count == 0) return 0;
  // Every third pair empty, the others count + 0..3 elements; symmetric,
  // as an in-place alltoallv needs.
  return (from + to) % 3 == 1 ? 0 : count + (from + to) % 4;
}

int64_t VectorLayout::extent(const std::vector<int64_t>& counts, const std::vector<int64_t>& displs) {
  int64_t end = 0;
  for (size_t j = 0; j < counts.size(); ++j) end = std::max(end, displs[j] + counts[j]);
  return end;
}

}  // namespace hiercoll::testing
