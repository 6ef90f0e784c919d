// --persistent: persistent collectives (MPI-4.0's MPI_<op>_init, Open MPI
// 4.1's MPIX_<op>_init) beside blocking ones, all interleaved in one job.
// Per operation and size, four implementations, each a median over
// repetitions of the slowest rank's time on the benchmark's clock
// (measure/clock.h):
//   hier             hiercoll's persistent request (MPIX_<op>_init, made
//                    once); each repetition MPI_Start + MPI_Wait
//   native           Open MPI's own (PMPIX_<op>_init: libnbc), made once;
//                    PMPI_Start + PMPI_Wait
//   hier-blocking    hiercoll's blocking call (MPI_<op>)
//   native-blocking  Open MPI's blocking call (PMPI_<op>: coll/tuned)
// Before every call the buffers get new contents at the same addresses, as
// an application's would; rooted operations use root 0.
// docs/BENCHMARK.md, "Persistent".
#pragma once

#include <mpi.h>

#include <string>

#include "bench/log.h"
#include "bench/options.h"
#include "measure/machine.h"

namespace hcbench {

// Collective over ctrl; writes results.csv (operation "<op>_init", the
// four implementations: hiercoll_bench_jobs gives each one's time over hier
// persistent's) and persistent.csv into `out`.  Returns the exit code.
int run_persistent(const Options& opt, MPI_Comm ctrl, const Machine& machine, const std::string& out, Log& log);

}  // namespace hcbench
