#include "runtime/stats.h"

#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/settings.h"

namespace hiercoll {

namespace {
constexpr int kCounters = 4;  // hier, flat, native, fallbacks
std::atomic<long> g_counts[kNumApiOps][kCounters];
}  // namespace

const char* api_op_name(ApiOp op) {
  static const char* const names[kNumApiOps] = {
      "bcast", "reduce", "allreduce", "allgather", "reduce_scatter_block", "reduce_scatter",
      "alltoall", "scan", "exscan", "barrier", "gather", "scatter",
      "gatherv", "scatterv", "allgatherv", "alltoallv", "alltoallw",
  };
  return names[static_cast<int>(op)];
}

void count_call(ApiOp op, Path path) { ++g_counts[static_cast<int>(op)][static_cast<int>(path)]; }
void count_fallback(ApiOp op) { ++g_counts[static_cast<int>(op)][3]; }
long local_count(ApiOp op, Path path) { return g_counts[static_cast<int>(op)][static_cast<int>(path)]; }
long local_fallbacks(ApiOp op) { return g_counts[static_cast<int>(op)][3]; }

namespace {
thread_local const char* g_last_algorithm = "";
thread_local bool g_last_arrival_order = false;
}  // namespace

void note_algorithm(const char* name) {
  g_last_algorithm = name;
  g_last_arrival_order = false;
}
const char* last_algorithm() { return g_last_algorithm; }
void note_arrival_order() { g_last_arrival_order = true; }
bool last_in_arrival_order() { return g_last_arrival_order; }

void report_stats() {
  if (!env_settings().stats) return;
  long mine[kNumApiOps * kCounters], sum[kNumApiOps * kCounters];
  for (int i = 0; i < kNumApiOps; ++i)
    for (int k = 0; k < kCounters; ++k) mine[i * kCounters + k] = g_counts[i][k];
  PMPI_Reduce(mine, sum, kNumApiOps * kCounters, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int rank;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  for (int i = 0; i < kNumApiOps; ++i) {
    const long* c = &sum[i * kCounters];
    const char* name = api_op_name(static_cast<ApiOp>(i));
    std::printf("hiercoll-stats: %s hier=%ld flat=%ld native=%ld\n", name, c[0], c[1], c[2]);
    if (c[3]) std::printf("hiercoll-fallbacks: %s %ld\n", name, c[3]);
  }
  std::fflush(stdout);
}

}  // namespace hiercoll
