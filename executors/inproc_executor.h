// Runs the schedules of all ranks of a group inside one process, moving
// real bytes between per-rank buffers.  Tests use it to check algorithms for
// hundreds of group sizes without mpirun.  It also checks the schedules:
// every receive must meet a send of the same size, no message may be left
// unreceived, and the ranks must not deadlock even when no message is
// buffered (sends complete only when matched, as large messages do in MPI).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "executors/buffers.h"
#include "schedule/schedule.h"

namespace hiercoll {

struct InprocRank {
  Schedule sched;
  Buffers bufs;  // Tmp entry: datatype and unit size only, as for execute_schedule
};

// An arrival-order run (arrival/arrival_order.h): every rank's schedule is
// that of its position, whose peers are positions.  The ranks enter in
// `order` (the root first); each runs as far as it can before the next
// enters, and a step whose position nobody holds yet waits until its
// holder enters -- the order processes arrive in, made deterministic.
struct InprocArrival {
  std::vector<int> order;     // real ranks in the order they enter
  std::vector<int> position;  // real rank -> its position
};

// Returns true on success; on failure `error` says what went wrong.
bool run_inprocess(std::vector<InprocRank>& ranks, MPI_Op op, std::string* error,
                   const InprocArrival* arrival = nullptr);

}  // namespace hiercoll
