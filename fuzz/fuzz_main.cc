// hiercoll_fuzz: the differential fuzzer (`./hiercoll fuzz`).  Runs cases
// first .. first+cases-1 of a seed, each on a communicator of its own,
// through hiercoll and through Open MPI, and reports cases per second and
// every mismatch with the case to replay.
//
//   hiercoll_fuzz [--cases N] [--seed S] [--first I] [--replay I] [--verbose]
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_case.h"
#include "fuzz/fuzz_comm.h"
#include "fuzz/fuzz_run.h"
#include "fuzz/options.h"

namespace {

// A refused command line: a line naming the argument, the usage, exit
// status 2.
[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "hiercoll_fuzz: %s\n%s", why.c_str(), hiercoll::fuzz::fuzz_usage().c_str());
  std::exit(2);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  hiercoll::fuzz::FuzzOptions o;
  std::string error;
  if (!hiercoll::fuzz::parse_fuzz_options(argc, argv, &o, &error)) usage(error);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (o.help) {
    if (rank == 0) std::printf("%s", hiercoll::fuzz::fuzz_usage().c_str());
    MPI_Finalize();
    return 0;
  }
  const char* layout = std::getenv("HIERCOLL_FUZZ_LAYOUT");  // the launcher's options, for the replay line
  const auto t0 = std::chrono::steady_clock::now();
  double last_report = 0;
  int64_t mismatches = 0;
  for (int64_t i = o.first; i < o.first + o.cases; ++i) {
    const hiercoll::fuzz::FuzzCase c = hiercoll::fuzz::draw_case(o.seed, i, size);
    if (o.verbose && rank == 0) std::printf("%s\n", c.describe().c_str()), std::fflush(stdout);
    MPI_Comm comm = hiercoll::fuzz::make_case_comm(c);
    std::string why;
    if (comm != MPI_COMM_NULL) {
      why = hiercoll::fuzz::run_case(c, comm);
      MPI_Comm_free(&comm);
    }
    if (!why.empty()) std::fprintf(stderr, "hiercoll-fuzz: [world rank %d] %s%s\n", rank, c.describe().c_str(), why.c_str());
    int bad = !why.empty(), any = 0;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && rank == 0) {
      ++mismatches;
      std::printf("hiercoll-fuzz: MISMATCH %s\n  replay: ./hiercoll fuzz %s --seed %llu --replay %lld\n",
                  c.describe().c_str(), layout ? layout : "<same layout>", (unsigned long long)o.seed, (long long)i);
      std::fflush(stdout);
    }
    if (rank == 0 && seconds_since(t0) - last_report > 30) {
      last_report = seconds_since(t0);
      std::printf("hiercoll-fuzz: %lld cases, %.0f s\n", (long long)(i - o.first + 1), last_report);
      std::fflush(stdout);
    }
  }
  if (rank == 0) {
    const double s = seconds_since(t0);
    std::printf("hiercoll-fuzz: seed %llu cases %lld..%lld on %d ranks: %lld mismatches, %.1f s, %.1f cases/s\n",
                (unsigned long long)o.seed, (long long)o.first, (long long)(o.first + o.cases - 1), size,
                (long long)mismatches, s, double(o.cases) / s);
  }
  long long all = mismatches;
  PMPI_Bcast(&all, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return all ? 1 : 0;
}
