// --overlap: how much of a nonblocking collective's time computation can
// hide, OSU-style (osu_iallreduce and friends), for hiercoll's hierarchical
// nonblocking calls and Open MPI's own (libnbc), with and without
// hiercoll's progress thread, all interleaved in one job.  Per operation
// and size, each a median over repetitions of the slowest rank's time:
//   pure      start, then wait: the communication alone
//   compute   start, compute for about `pure`, wait (OSU: no test)
//   +test     the same computation in 10 slices with MPI_Test between
//   cpu       the computation alone
//   overlap   100 * (1 - (compute - cpu) / pure), clipped to 0..100
// and hiercoll's blocking call's time beside its nonblocking `pure`.
// docs/BENCHMARK.md, "Overlap".
#pragma once

#include <mpi.h>

#include <string>

#include "bench/log.h"
#include "bench/options.h"

namespace hcbench {

// Collective over ctrl; writes results.csv (times, for hiercoll_bench_jobs)
// and overlap.csv into `out`.  Returns the exit code.
int run_overlap(const Options& opt, MPI_Comm ctrl, const std::string& out, Log& log);

}  // namespace hcbench
