// Default choice of a flat algorithm and segment size from the message size
// and group size, following the cost model and the cutoffs reported by
// Thakur, Rabenseifner and Gropp (MPICH) and, for pipelined trees, the
// two-tree paper.  The rules are data (select/flat_rules.cc): the first rule of
// the operation whose size and group limits match and whose algorithm's
// restrictions fit the call wins.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/registry.h"
#include "schedule/coll_args.h"
#include "select/machine.h"

namespace hiercoll {

// Bytes that selection compares against the cutoffs: the whole vector for
// bcast, reduce, allreduce, scan, exscan; all blocks together for
// allgather, gather, scatter, reduce_scatter, allgatherv; one block for
// alltoall; 0 for gatherv, scatterv and alltoallv, whose blocks no rank
// knows all of (the root knows a gatherv's; ranks must choose alike).
int64_t selection_bytes(Op op, int64_t unit_bytes, const CollArgs& args);

// One rule of the table: it applies to calls of `op` shorter than
// below_bytes on groups of at most max_p ranks (only on power-of-two
// groups, only on skewed allgatherv blocks, only where a ring pays, where
// flagged) whose arguments `algorithm`'s restrictions admit.
struct FlatRule {
  Op op;
  int64_t below_bytes;
  int max_p;
  const char* algorithm;
  bool pow2_groups = false;
  bool skewed_only = false;
  bool ring = false;
};

// The rule table, in the order default_algorithm tries it.
std::vector<FlatRule> flat_rule_table();

// How a group's inter-node messages share the nodes' links, as far as the
// rules care: the most ranks of the group on one node (their concurrent
// messages between nodes share its link) and whether every node's ranks
// are consecutive (a ring's neighbours then share a node: one message a
// step leaves it).  The default: one rank per node, or a group inside one
// node, whose messages share no link.
struct LinkSharing {
  int ranks_per_node = 1;
  bool consecutive = true;
};

// The default algorithm for the call on a machine with figures m (null:
// builtin_machine()) and the group's link sharing; never null: every
// operation has an unrestricted last rule.
const Algorithm* default_algorithm(const CollArgs& args, int64_t bytes, const MachineFigures* m = nullptr,
                                   const LinkSharing& sharing = LinkSharing{});

// MPICH picks a ring (bcast's scatter + ring allgather, the ring
// allgather) for long messages.  Against recursive doubling / Bruck it pays
// (p-1) - ceil(lg p) more latencies, which dominate large groups, and it
// saves link bandwidth where nodes hold several ranks: its neighbours share
// a node, so one message a step crosses a node's link, where recursive
// doubling's later steps send from every rank of the node at once.
// ring_pays compares the two allgathers under alpha-beta with that link
// sharing (flat_rules.cc) and keeps MPICH's choice unless the ring's
// predicted excess exceeds both
//  - kRingSlackLatencies latencies: what MPICH's choices grant the ring on
//    every group of up to 9 ranks (8 ranks: 7 latencies against 3, the
//    same bytes); and
//  - kRingModelError of recursive doubling's time: the model's own error
//    (SIMULATION.md, "Calibration").
// The rules then take recursive doubling / Bruck.
constexpr double kRingSlackLatencies = 4;
constexpr double kRingModelError = 0.15;
bool ring_pays(int p, int64_t bytes, const MachineFigures& m, const LinkSharing& sharing);

// Bounds on pipeline segments, applied to every segment (forced, tuned or
// default) alike on every rank.  Each segment costs every message's
// overhead (a few steps, requests, matching) and its share of building the
// schedule, which tiny segments on a long vector multiply
// (docs/ARCHITECTURE.md, "Bounded segments").  So:
// - a segment is at least kMinSegmentBytes, except that a message may be
//   cut into up to kMaxSmallSegments smaller ones (short messages keep
//   their pipelines);
// - a message has at most kMaxSegments segments.
constexpr int64_t kMinSegmentBytes = 32 * 1024;
constexpr int64_t kMaxSmallSegments = 64;
constexpr int64_t kMaxSegments = 1024;
// seg_units raised (where needed) to the bounds above, for the call's units
// of unit_bytes each; 0 (no segmentation) stays 0.  Every rank computes the
// same, from arguments all ranks share.
int64_t bounded_seg_units(const CollArgs& args, int64_t unit_bytes, int64_t seg_units);

// Default pipelining segment in bytes for an algorithm and message size on
// a machine with figures m (null: builtin_machine(), nothing was measured).
int64_t default_segment_bytes(const Algorithm& a, int64_t bytes, int group_size,
                              const MachineFigures* m = nullptr);

}  // namespace hiercoll
