// hiercoll_memory: whether hiercoll's resident memory stays flat over many
// distinct calls and many communicators.  Not a timing
// tool: it prints VmRSS (/proc/self/status) and the sizes of hiercoll's
// caches at checkpoints, and the growth after the warm-up.
//
//   hiercoll_memory [--calls N] [--comms N] [--segmented N]
//
// Calls: N calls of distinct (operation, root, count): bcast, reduce,
// allreduce, gather, scatter of 1..N/20 doubles on a duplicate of
// MPI_COMM_WORLD.  Segmented: N bcasts of distinct sizes from 2 MiB on
// through the pipelined composition (a default segment per size).
// Communicators: N create/free cycles (MPI_Comm_dup,
// MPI_Comm_split, MPI_Comm_create_group in turn), one allreduce on each.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "call_by_op/call_by_op.h"
#include "hier/hier_registry.h"
#include "runtime/comm_registry.h"
#include "runtime/comm_state.h"

namespace {

using hiercoll::ApiOp;

long vm_rss_kib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

// The largest VmRSS over the ranks, on rank 0.
long max_rss() {
  long mine = vm_rss_kib(), most = 0;
  PMPI_Reduce(&mine, &most, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  return most;
}

void report(const char* what, long n, MPI_Comm comm) {
  const long rss = max_rss();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const size_t schedules = comm == MPI_COMM_NULL ? 0 : hiercoll::comm_state(comm)->schedules.size();
  if (rank == 0)
    std::printf("%-12s %8ld  VmRSS max %7ld KiB  schedules %4zu  interned %5zu  freed handles %4zu\n", what, n, rss,
                schedules, hiercoll::interned_choice_count(), hiercoll::freed_comm_count());
  std::fflush(stdout);
}

void distinct_calls(long calls) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int size;
  MPI_Comm_size(comm, &size);
  const ApiOp ops[] = {ApiOp::kBcast, ApiOp::kReduce, ApiOp::kAllreduce, ApiOp::kGather, ApiOp::kScatter};
  long max_count = calls / 20 + 1;
  if (max_count % 7919 == 0) ++max_count;
  std::vector<double> send(size_t(max_count) * size, 1.0), recv(size_t(max_count) * size);
  long rss_warm = 0;
  for (long i = 0; i < calls; ++i) {
    // Operation and root vary fastest: every (op, root, count) once while i < 20 * max_count.
    const ApiOp op = ops[i % 5];
    const int root = int((i / 5) % size);
    // Counts in a scattered order (7919 is prime), so the largest buffers
    // come early and the growth measured is the caches', not the buffers'.
    const int count = int(1 + (i / 20 * 7919) % max_count);
    hiercoll::CallArgs a =
        hiercoll::same_type_args(send.data(), recv.data(), count, MPI_DOUBLE, MPI_SUM, root, comm);
    hiercoll::call_by_op(op, hiercoll::Via::kMpi, a);
    if (i + 1 == calls / 10) report("calls", i + 1, comm), rss_warm = max_rss();
    if ((i + 1) % (calls / 5) == 0) report("calls", i + 1, comm);
  }
  const long rss_end = max_rss();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::printf("calls: growth after the first 10%%: %ld KiB\n", rss_end - rss_warm);
  MPI_Comm_free(&comm);
}

// Bcasts of distinct sizes through the pipelined composition, whose
// default segment differs with the size.
void segmented_sizes(long calls) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "hiercoll_bcast_composition", "bcast_pipelined");
  MPI_Comm_set_info(comm, info);
  MPI_Info_free(&info);
  std::vector<char> buf(size_t((2 << 20) + 4097 * calls));
  for (long i = 0; i < calls; ++i) {
    MPI_Bcast(buf.data(), int((2 << 20) + 4097 * i), MPI_BYTE, int(i % 2), comm);
    if ((i + 1) % (calls / 4) == 0) report("segmented", i + 1, comm);
  }
  MPI_Comm_free(&comm);
}

void comm_cycles(long cycles) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  long rss_warm = 0;
  for (long i = 0; i < cycles; ++i) {
    MPI_Comm c = MPI_COMM_NULL;
    switch (i % 3) {
      case 0: MPI_Comm_dup(MPI_COMM_WORLD, &c); break;
      case 1: MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &c); break;
      case 2: MPI_Comm_create_group(MPI_COMM_WORLD, world, 3, &c); break;
    }
    double x = rank, y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, c);
    MPI_Comm_free(&c);
    if (i + 1 == cycles / 10) report("comms", i + 1, MPI_COMM_NULL), rss_warm = max_rss();
    if ((i + 1) % (cycles / 5) == 0) report("comms", i + 1, MPI_COMM_NULL);
  }
  MPI_Group_free(&world);
  const long rss_end = max_rss();
  if (rank == 0) std::printf("comms: growth after the first 10%%: %ld KiB\n", rss_end - rss_warm);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long calls = 100000, comms = 20000, segmented = 2000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--calls")) calls = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--comms")) comms = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--segmented")) segmented = std::atol(argv[i + 1]);
  }
  if (calls < 20 || comms < 10 || segmented < 4) {
    std::fprintf(stderr, "usage: hiercoll_memory [--calls N>=20] [--comms N>=10] [--segmented N>=4]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  report("start", 0, MPI_COMM_NULL);
  distinct_calls(calls);
  segmented_sizes(segmented);
  comm_cycles(comms);
  MPI_Finalize();
  return 0;
}
