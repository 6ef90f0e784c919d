#include "tests/support/vector_layout.h"

#include <algorithm>

namespace hiercoll::testing {

int64_t VectorLayout::block(Op op, int from, int to) const {
  if (op != Op::kAlltoallv) to = 0;
  if (!counts.empty() && op != Op::kAlltoallv) return counts[from];
  if (count == 0) return 0;
  // Every third pair empty, the others count + 0..3 elements; symmetric,
  // as an in-place alltoallv needs.  At the mid scales (100 to 99,999)
  // every fifth pair holds eight times as many: one call then mixes
  // messages under and over the MPI executor's small-message bound
  // (executors/mpi_executor.h), as counts of 1000 4-byte ints do.
  const int64_t n = (from + to) % 3 == 1 ? 0 : count + (from + to) % 4;
  return count >= 100 && count < 100000 && (from + to) % 5 == 2 ? 8 * n : n;
}

int64_t VectorLayout::extent(const std::vector<int64_t>& counts, const std::vector<int64_t>& displs) {
  int64_t end = 0;
  for (size_t j = 0; j < counts.size(); ++j) end = std::max(end, displs[j] + counts[j]);
  return end;
}

}  // namespace hiercoll::testing
