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
#include <cstring>
#include <string>

#include "fuzz/fuzz_case.h"
#include "fuzz/fuzz_comm.h"
#include "fuzz/fuzz_run.h"

namespace {

struct Options {
  int64_t cases = 1000, first = 0;
  uint64_t seed = 1;
  bool verbose = false;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "hiercoll_fuzz: %s\nusage: hiercoll_fuzz [--cases N] [--seed S] [--first I] [--replay I] "
               "[--verbose]\n",
               why);
  std::exit(2);
}

int64_t number(const char* flag, const char* v) {
  char* end = nullptr;
  const long long x = v ? std::strtoll(v, &end, 10) : -1;
  if (!v || *end || x < 0) usage((std::string(flag) + " needs a number >= 0").c_str());
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--cases") o.cases = number("--cases", v), ++i;
    else if (a == "--seed") o.seed = uint64_t(number("--seed", v)), ++i;
    else if (a == "--first") o.first = number("--first", v), ++i;
    else if (a == "--replay") o.first = number("--replay", v), o.cases = 1, o.verbose = true, ++i;
    else if (a == "--verbose") o.verbose = true;
    else usage(("unknown argument " + a).c_str());
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const Options o = parse(argc, argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
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
