// Collectives on distinct communicators from concurrent threads under
// MPI_THREAD_MULTIPLE (docs/ARCHITECTURE.md, "Threads"): four threads, each
// with its own duplicate of MPI_COMM_WORLD and its own hints, run every
// operation at several counts, roots and datatypes against Open MPI's own
// collective, and create, use and free communicators of their own.
//
// ThreadSanitizer (not part of `./hiercoll test`: a second full build),
// two commands:
//   bazel --output_base=/tmp/tsan build --platform_suffix=tsan
//     --copt=-fsanitize=thread --copt=-g --linkopt=-fsanitize=thread //tests:threads_mpi_test_bin
//   TSAN_OPTIONS=suppressions=$PWD/tools/tsan_openmpi.supp ./hiercoll cluster --nodes 2 --ppn 2 --
//     /tmp/tsan/execroot/hiercoll/bazel-out/k8-opttsan/bin/tests/threads_mpi_test_bin
// Open MPI is not instrumented; the suppressions name only its libraries
// (its own lock orders, and its progress engine filling receive buffers
// that another thread's request owns).
#include <mpi.h>

#include <string>
#include <thread>
#include <vector>

#include "runtime/stats.h"
#include "tests/support/data_cases.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {

int mpi_test_thread_level() { return MPI_THREAD_MULTIPLE; }

namespace {

constexpr int kThreads = 4;

// Thread t's hints: each thread takes another path through the library.
void set_hints(int t, MPI_Comm comm) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "hiercoll", t % 2 ? "flat" : "hier");
  if (t >= 2) MPI_Info_set(info, "hiercoll_segment_bytes", "256");  // many segments
  MPI_Comm_set_info(comm, info);
  MPI_Info_free(&info);
}

// Every operation on comm, compared with MPI's; the first difference, or "".
std::string every_operation(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  for (int api = 0; api < kNumApiOps; ++api)
    for (const DataCase& d : data_cases())
      for (int count : {0, 1, 7, 300})
        for (int root : {0, size - 1})
          for (bool in_place : {false, true}) {
            const ApiOp op = static_cast<ApiOp>(api);
            if ((in_place && !allows_in_place(op)) || (root > 0 && !is_rooted(op))) continue;
            const std::string why = compare_with_native(MpiCase{op, &d, count, root, in_place}, comm);
            if (!why.empty()) return why;
          }
  return "";
}

// Communicators of the thread's own, created, used and freed.
std::string own_communicators(MPI_Comm comm) {
  for (int i = 0; i < 10; ++i) {
    MPI_Comm c;
    if (i % 2) MPI_Comm_dup(comm, &c);
    else MPI_Comm_split(comm, 0, -i, &c);
    int rank, sum = 0, size;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    MPI_Comm_free(&c);
    if (sum != size * (size - 1) / 2) return "allreduce on a new communicator gave " + std::to_string(sum);
  }
  return "";
}

class ThreadsTest : public MpiTest {};

TEST_F(ThreadsTest, ProvidedMultiple) {
  int provided = 0;
  MPI_Query_thread(&provided);
  ASSERT_EQ(provided, MPI_THREAD_MULTIPLE);
}

TEST_F(ThreadsTest, EveryOperationOnDistinctCommunicators) {
  int provided = 0;
  MPI_Query_thread(&provided);
  ASSERT_EQ(provided, MPI_THREAD_MULTIPLE);
  data_cases();  // the datatypes, made before the threads start
  std::vector<MPI_Comm> comms(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    set_hints(t, comms[t]);
  }
  const long calls_before = local_count(ApiOp::kAllreduce, Path::kHier) + local_count(ApiOp::kAllreduce, Path::kFlat);
  std::vector<std::string> why(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      why[t] = every_operation(comms[t]);
      if (why[t].empty()) why[t] = own_communicators(comms[t]);
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(why[t], "") << "thread " << t;
  // The statistics (atomic counters) saw every thread's calls.
  const long calls = local_count(ApiOp::kAllreduce, Path::kHier) + local_count(ApiOp::kAllreduce, Path::kFlat);
  EXPECT_GE(calls - calls_before, kThreads * 10);
  for (MPI_Comm& c : comms) MPI_Comm_free(&c);
}

}  // namespace
}  // namespace hiercoll::testing
