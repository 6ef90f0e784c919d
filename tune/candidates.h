// The methods the tuner tries for one (operation, message size, layout):
// Open MPI's own collective, and the methods the runtime's decision weighs
// (decide/candidates.h: every flat algorithm that fits; every hierarchical
// composition that applies, with every algorithm it can run among the node
// leaders), trees of rooted calls also in arrival order.  Each with the
// segment sizes to try where it segments: the powers of two below the
// message as the runtime runs them (runtime_segments), from the largest
// down, so that MGD descends from the largest as the paper's does (0, the
// default, is not among them: it lies somewhere in the middle, and a walk
// that starts there stops before the small segments); {0} where no power
// of two fits below the message.
#pragma once

#include <cstdint>
#include <vector>

#include "schedule/coll_args.h"
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

// Powers of two below `bytes` (and multiples of unit_bytes) from the
// largest down to kMinSegmentBytes; {0} when there is none.
std::vector<int64_t> segment_sizes(int64_t bytes, int64_t unit_bytes);

// segment_sizes of the call's moved bytes as the runtime runs them: each
// raised to the segment bounds (select/flat_rules.h bounded_seg_units), each
// distinct one once, so that no two candidates run one schedule and no file
// records a segment that never runs.
std::vector<int64_t> runtime_segments(const hiercoll::CollArgs& a, int64_t unit_bytes);

}  // namespace hctune
