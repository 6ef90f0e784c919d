// What a schedule generator knows about one call on one rank.
#pragma once

#include <cstdint>
#include <vector>

namespace hiercoll {

enum class Op : uint8_t {
  kBcast, kReduce, kAllreduce, kAllgather, kReduceScatter, kAlltoall,
  kScan, kExscan, kBarrier, kGather, kScatter,
  kGatherv, kScatterv, kAllgatherv, kAlltoallv,
};
constexpr int kNumOps = 15;

// The v-variants: per-rank blocks of any size at any displacement.
inline bool is_v_op(Op op) { return op >= Op::kGatherv; }
// The operations with a root.
inline bool is_rooted(Op op) {
  return op == Op::kBcast || op == Op::kReduce || op == Op::kGather || op == Op::kScatter || op == Op::kGatherv ||
         op == Op::kScatterv;
}

const char* op_name(Op op);                 // "bcast", "reduce_scatter", ...
bool op_from_name(const char* name, Op* op);  // inverse of op_name

// Buffer conventions per operation (units: see schedule/schedule.h):
//  bcast          Recv[0,count) on every rank; the root's is the input.
//  reduce         Send[0,count) input; Recv[0,count) result, root only
//                 (non-roots' Recv must not be touched).
//  allreduce      Send[0,count) input; Recv[0,count) result.
//  scan, exscan   Send[0,count) input; Recv[0,count) result (exscan: rank 0's
//                 Recv is left untouched).
//  reduce_scatter Send holds sum(counts) units; Recv[0,counts[rank]) result.
//  allgather      unit = one block; Send[0,1) mine; Recv[0,size) all blocks.
//  gather         Send[0,1) mine; Recv[0,size) at the root only.
//  scatter        Send[0,size) at the root only; Recv[0,1) mine.
//  alltoall       Send[0,size) blocks for each peer; Recv[0,size) from each.
//  barrier        no data.
// The v-variants count in elements of each side's own datatype (ranks and
// sides may use different types of one signature: messages match by
// bytes, and every schedule's shape depends only on which blocks are
// empty).  Their blocks are `counts`/`displs` (the user's arrays):
//  gatherv        Send[0,count) mine; root: Recv blocks (counts, displs).
//                 Off the root counts/displs are empty (MPI gives them to
//                 the root only), so only the root knows the block sizes.
//  scatterv       root: Send blocks (counts, displs); Recv[0,count) mine.
//  allgatherv     Send[0,count) mine; Recv blocks (counts, displs).
//  alltoallv      Send blocks (send_counts, send_displs); Recv blocks
//                 (counts, displs).
// In-place calls set send_alias (see ScheduleBuilder); schedules must give
// the same result when Send aliases Recv that way.
struct CollArgs {
  Op op = Op::kBcast;
  int rank = 0;
  int size = 1;
  int root = 0;
  int64_t count = 0;      // units; block collectives use 1
  int64_t seg_units = 0;  // pipelining segment in units; 0 = no segmentation
  bool commutative = true;
  int64_t send_alias = -1;
  std::vector<int64_t> counts;  // reduce_scatter: units per rank; v-variants: see above
  std::vector<int64_t> displs;  // v-variants: offset of each rank's block
  std::vector<int64_t> send_counts, send_displs;  // alltoallv's Send blocks
  // Alltoallv's node-aware composition, after the runtime's count exchange
  // (hier/node_counts.h): rows of send counts then receive counts, in
  // scratch units; a node's leader holds its members' (node order), other
  // ranks their own.  Empty elsewhere.
  std::vector<int64_t> node_counts;
};

}  // namespace hiercoll
