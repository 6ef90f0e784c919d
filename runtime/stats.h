// Per-operation call counters.  With HIERCOLL_STATS=1, MPI_Finalize prints,
// on rank 0 of MPI_COMM_WORLD, the counts summed over all ranks:
//   hiercoll-stats: <op> hier=<n> flat=<n> native=<n>
// and, for operations where a forced algorithm did not fit a call,
//   hiercoll-fallbacks: <op> <n>
#pragma once

namespace hiercoll {

// The API's operations (reduce_scatter_block is counted apart from
// reduce_scatter although both run reduce_scatter schedules).
enum class ApiOp {
  kBcast, kReduce, kAllreduce, kAllgather, kReduceScatterBlock, kReduceScatter,
  kAlltoall, kScan, kExscan, kBarrier, kGather, kScatter,
  kGatherv, kScatterv, kAllgatherv, kAlltoallv, kAlltoallw,
};
constexpr int kNumApiOps = 17;
const char* api_op_name(ApiOp op);

enum class Path { kHier = 0, kFlat = 1, kNative = 2 };

void count_call(ApiOp op, Path path);
void count_fallback(ApiOp op);
// Collective over MPI_COMM_WORLD; prints on its rank 0 when HIERCOLL_STATS is set.
void report_stats();
// This process's counts (tests).
long local_count(ApiOp op, Path path);
long local_fallbacks(ApiOp op);

// The algorithm the last call on this thread ran ("native" for MPI's own,
// "hier:<name>" for hierarchical compositions); benchmarks and tests read it.
void note_algorithm(const char* name);
const char* last_algorithm();
// Whether the last call took its tree from the arrival order
// (HIERCOLL_DYNAMIC); note_algorithm resets it.
void note_arrival_order();
bool last_in_arrival_order();

}  // namespace hiercoll
