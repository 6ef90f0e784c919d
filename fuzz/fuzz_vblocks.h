// The blocks of a fuzzed v-variant call (gatherv, scatterv, allgatherv,
// alltoallv): every rank's counts and displacements on each side, laid out
// in order, in order with gaps, or out of order with gaps, and how many
// elements each side's buffer needs.
#pragma once

#include <cstdint>
#include <vector>

#include "fuzz/fuzz_case.h"

namespace hiercoll::fuzz {

// One side of a call: `counts[k]` elements at `displs[k]` (in extents) for
// peer k, in a buffer of `elems` elements; a single block (gatherv's and
// allgatherv's send side, scatterv's receive side) is counts[0] at 0.
struct VSide {
  std::vector<int> counts, displs;
  int64_t elems = 0;
};

struct VBlocks {
  VSide send, recv;
};

// The blocks of rank `rank` of `size` in case c (root: gatherv's and
// scatterv's), laid out as c.displs says; an in-place alltoallv uses the
// receive side for both.
VBlocks v_blocks(const FuzzCase& c, int rank, int size, int root);

}  // namespace hiercoll::fuzz
