// Default choice of a flat algorithm and segment size from the message size
// and group size, following the cost model and the cutoffs reported by
// Thakur, Rabenseifner and Gropp (MPICH) and, for pipelined trees, the
// two-tree paper.  The rules are data (select/flat_rules.cc): the first rule of
// the operation whose size and group limits match and whose algorithm's
// restrictions fit the call wins.
#pragma once

#include <cstdint>

#include "flat/coll_args.h"
#include "flat/registry.h"
#include "select/machine.h"

namespace hiercoll {

// Bytes that selection compares against the cutoffs: the whole vector for
// bcast, reduce, allreduce, scan, exscan; all blocks together for
// allgather, gather, scatter, reduce_scatter, allgatherv; one block for
// alltoall; 0 for gatherv, scatterv and alltoallv, whose blocks no rank
// knows all of (the root knows a gatherv's; ranks must choose alike).
int64_t selection_bytes(Op op, int64_t unit_bytes, const CollArgs& args);

// The default algorithm for the call on a machine with figures m (null:
// builtin_machine()); never null: every operation has an unrestricted
// last rule.
const Algorithm* default_algorithm(const CollArgs& args, int64_t bytes, const MachineFigures* m = nullptr);

// MPICH picks a ring (bcast's scatter + ring allgather, the ring allgather)
// for long messages: the same bandwidth term as recursive doubling, but
// (p-1) - ceil(lg p) more latencies, which on large groups dominate (at
// 1024 ranks, 1 MiB, 12.5 GB/s, 1.5 us: 1.5 ms of latency against 84 us of
// transfer).  A ring is taken only while that extra latency (inter-node
// alpha) is at most kRingLatencyFactor times the message's transfer time
// (bytes x inter-node beta).  10 is the tightest factor that keeps the
// MPICH choices of every group of <= 8 ranks on the built-in (emulated
// cluster's) figures: the ring allgather of 7 ranks at 80 KiB pays 9.7x.
constexpr double kRingLatencyFactor = 10;
bool ring_latency_affordable(int p, int64_t bytes, const MachineFigures& m);

// At most this many pipeline segments per message: a smaller segment
// (forced, tuned or default) is raised to the message's 1/kMaxSegments.  A
// schedule has a few steps per segment, and each step costs a message's
// overhead and its share of building the schedule, so tiny segments on a
// long vector would otherwise run for minutes (HIERCOLL_SEGMENT_BYTES=100).
constexpr int64_t kMaxSegments = 1024;
// seg_units raised (where needed) so that the call's units make at most
// kMaxSegments segments; 0 (no segmentation) stays 0.  Every rank computes
// the same, from arguments all ranks share.
int64_t bounded_seg_units(const CollArgs& args, int64_t seg_units);

// Default pipelining segment in bytes for an algorithm and message size on
// a machine with figures m (null: builtin_machine(), nothing was measured).
int64_t default_segment_bytes(const Algorithm& a, int64_t bytes, int group_size,
                              const MachineFigures* m = nullptr);

}  // namespace hiercoll
