// GoogleTest main for MPI programs.  Every rank runs every test.  After each
// test the ranks agree on its outcome: a failure on any rank fails the test
// on every rank, and the message names the failing ranks.  Only rank 0
// prints GoogleTest's report; other ranks print their own failures, tagged
// with their rank, to stderr.  A test that runs longer than
// HIERCOLL_TEST_TIMEOUT seconds (default 300) aborts the job with a clear
// message instead of hanging.  The exit status is non-zero on any failure.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "tests/support/mpi_test.h"

namespace hiercoll::testing {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// The watchdog thread calls MPI_Abort only; MPI_THREAD_SERIALIZED suffices
// in practice, and Open MPI allows MPI_Abort from any thread.  Weak: a test
// binary that needs more defines its own.
// The watchdog thread calls MPI_Abort only; MPI_THREAD_SERIALIZED suffices
// in practice, and Open MPI allows MPI_Abort from any thread.  A test that
// needs more defines this function (threads_mpi_test.cc), or sets
// HIERCOLL_TEST_THREAD_MULTIPLE=1 (the progress thread's tests).
__attribute__((weak)) int mpi_test_thread_level() {
  const char* multiple = std::getenv("HIERCOLL_TEST_THREAD_MULTIPLE");
  return multiple && *multiple == '1' ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
}

namespace {
const char kAgreement[] = "failed on rank(s) ";
}  // namespace

void MpiTest::TearDown() {
  // Agree on the outcome.  Every rank reaches this point unless a rank hung
  // (then the watchdog ends the job).
  const int size = world_size();
  const int mine = HasFailure() ? 1 : 0;
  std::vector<int> all(size);
  PMPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::string failing;
  for (int r = 0; r < size; ++r)
    if (all[r]) failing += (failing.empty() ? "" : ",") + std::to_string(r);
  if (!failing.empty() && !mine) ADD_FAILURE() << kAgreement << failing;
  else if (!failing.empty() && world_rank() == 0) std::fprintf(stderr, "  (failed on rank(s) %s)\n", failing.c_str());
}

namespace {

// Prints a non-zero rank's own failures, which GoogleTest's printer (kept on
// rank 0 only) would not show.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    // Only this rank's own failures; the agreement is reported by rank 0.
    if (!r.failed() || std::strstr(r.message(), kAgreement)) return;
    std::fprintf(stderr, "[rank %d] %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?", r.line_number(),
                 r.message());
  }

 private:
  int rank_;
};

// Aborts the job when one test runs too long.
class Watchdog : public ::testing::EmptyTestEventListener {
 public:
  explicit Watchdog(int seconds) : seconds_(seconds), thread_([this] { loop(); }) {}
  ~Watchdog() override {
    {
      std::lock_guard<std::mutex> l(mu_);
      quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void OnTestStart(const ::testing::TestInfo& t) override {
    std::lock_guard<std::mutex> l(mu_);
    name_ = std::string(t.test_suite_name()) + "." + t.name();
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(seconds_);
    running_ = true;
    cv_.notify_all();
  }
  void OnTestEnd(const ::testing::TestInfo&) override {
    std::lock_guard<std::mutex> l(mu_);
    running_ = false;
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> l(mu_);
    while (!quit_) {
      if (running_ && std::chrono::steady_clock::now() >= deadline_) {
        std::fprintf(stderr, "[rank %d] TIMEOUT: test %s ran longer than %d s (a hang?); aborting the job\n",
                     world_rank(), name_.c_str(), seconds_);
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 124);
      }
      cv_.wait_for(l, std::chrono::milliseconds(200));
    }
  }
  int seconds_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string name_;
  std::chrono::steady_clock::time_point deadline_;
  bool running_ = false, quit_ = false;
  std::thread thread_;
};

}  // namespace
}  // namespace hiercoll::testing

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, hiercoll::testing::mpi_test_thread_level(), &provided);
  const int rank = hiercoll::testing::world_rank();
  // Bazel's premature-exit marker is one file: let rank 0 alone manage it.
  if (rank != 0) unsetenv("TEST_PREMATURE_EXIT_FILE");
  ::testing::InitGoogleTest(&argc, argv);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new hiercoll::testing::RankFailurePrinter(rank));
  }
  const char* t = std::getenv("HIERCOLL_TEST_TIMEOUT");
  listeners.Append(new hiercoll::testing::Watchdog(t ? std::atoi(t) : 300));
  int rc = RUN_ALL_TESTS();
  int any = 0;
  PMPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any ? 1 : 0;
}
