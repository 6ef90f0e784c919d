// The blocks of a v-variant test call: how many elements rank `from` sends
// rank `to`, and where blocks lie in the buffers that hold one block per
// rank.  Counts are irregular with zeros (unless every count is 0);
// displacements are either back to back in rank order or in reverse rank
// order with a one-element gap after every block.
#pragma once

#include <cstdint>
#include <vector>

#include "schedule/coll_args.h"

namespace hiercoll::testing {

struct VectorLayout {
  int p = 1;
  int64_t count = 0;            // scale of the irregular counts
  std::vector<int64_t> counts;  // given per-rank counts (gatherv/scatterv/allgatherv); empty: the pattern
  bool gaps = false;            // reverse order with gaps instead of back to back

  // Elements rank `from` sends rank `to` (for the rooted and allgather
  // forms the block of `from`, whatever `to`).
  int64_t block(Op op, int from, int to) const;
  // Counts and displacements of the buffer that holds one block per rank:
  // block j's count is count_of(j).
  template <typename F>
  void layout(F count_of, std::vector<int64_t>* counts_out, std::vector<int64_t>* displs_out) const;
  // Its extent in elements (gaps included).
  static int64_t extent(const std::vector<int64_t>& counts, const std::vector<int64_t>& displs);
};

template <typename F>
void VectorLayout::layout(F count_of, std::vector<int64_t>* c, std::vector<int64_t>* d) const {
  c->assign(p, 0);
  d->assign(p, 0);
  int64_t pos = 0;
  for (int i = 0; i < p; ++i) {
    const int j = gaps ? p - 1 - i : i;
    (*c)[j] = count_of(j);
    (*d)[j] = pos;
    pos += (*c)[j] + (gaps ? 1 : 0);
  }
}

}  // namespace hiercoll::testing
