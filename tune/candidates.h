// The methods the tuner tries for one (operation, message size, layout):
// Open MPI's own collective; every flat algorithm that fits; every
// hierarchical composition that applies, with every algorithm it can run
// among the node leaders.  Each with the segment sizes to try where it
// segments: 0 (the rules' default from the machine figures) first, then
// the powers of two below the message, down to kMinSegmentBytes.
#pragma once

#include <cstdint>
#include <vector>

#include "flat/coll_args.h"
#include "select/method.h"
#include "topo/topology.h"

namespace hctune {

constexpr int64_t kMinSegmentBytes = 1024;

struct TuneCandidate {
  hiercoll::Method method;
  std::vector<int64_t> segments;  // {0} for a method that does not segment
};

// `bytes` as the tuning file counts them (hiercoll::tuning_bytes);
// `unit_bytes` the size of the call's unit (4 for float reductions, 1 for
// bcast's bytes, a block for block collectives); `rooted`: calls rotate
// their root, so algorithms restricted to root 0 are left out.
std::vector<TuneCandidate> candidates(hiercoll::Op op, const hiercoll::Layout& L, int64_t bytes, int64_t unit_bytes,
                                      bool rooted);

// 0, then powers of two below `bytes` (and multiples of unit_bytes) from
// the largest down to kMinSegmentBytes.
std::vector<int64_t> segment_sizes(int64_t bytes, int64_t unit_bytes);

}  // namespace hctune
