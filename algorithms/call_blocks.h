// Where each rank's block of a call lies, for generators shared by a block
// collective and its v-variant: block collectives have one-unit blocks at
// unit offsets, v-variants the user's counts and displacements
// (schedule/coll_args.h).  A generator written against these serves both.
#pragma once

#include <memory>
#include <vector>

#include "algorithms/blocks.h"
#include "schedule/coll_args.h"
#include "schedule/schedule.h"

namespace hiercoll {

// The blocks of the buffer that holds every rank's block: Recv of gather,
// allgather and alltoall, Send of scatter (and their v-variants).
inline Blocks all_blocks(const CollArgs& a) {
  if (!is_v_op(a.op)) return unit_blocks(a.size);
  return Blocks{a.displs, a.counts};
}
// all_blocks, shared: gather's and scatter's one-unit blocks with the
// ranks this thread built before (algorithms/blocks.h shared_even_blocks),
// so that a rank whose own work is O(log p) does not pay O(p) for them; a
// v-variant's copied from its counts.
inline std::shared_ptr<const Blocks> shared_all_blocks(const CollArgs& a) {
  if (!is_v_op(a.op)) return shared_even_blocks(a.size, a.size);
  return std::make_shared<const Blocks>(Blocks{a.displs, a.counts});
}
// Alltoall(v)'s Send blocks.
inline Blocks send_blocks(const CollArgs& a) {
  if (!is_v_op(a.op)) return unit_blocks(a.size);
  return Blocks{a.send_displs, a.send_counts};
}
// This rank's own block on the side that holds one block only (gather's
// Send, scatter's Recv).
inline Span own_block(const CollArgs& a, Buf buf) { return Span{buf, 0, is_v_op(a.op) ? a.count : 1}; }

// Gatherv/scatterv after the root's counts reached every rank (kAllCounts,
// algorithms/registry.h): a non-root holds no block buffer, so its displacements
// are the counts packed in rank order (generators use them only to size
// scratch).
inline void adopt_root_counts(const std::vector<int64_t>& counts, CollArgs* a) {
  if (a->rank == a->root) return;
  a->counts = counts;
  a->displs.assign(counts.size(), 0);
  for (size_t j = 1; j < counts.size(); ++j) a->displs[j] = a->displs[j - 1] + counts[j - 1];
}

// Whether the blocks lie back to back in rank order (the form the
// allgather primitives need, algorithms/allgather.h).
bool adjacent_in_order(const Blocks& L);

}  // namespace hiercoll
