// Runs one rank's schedule on a communicator with nonblocking
// point-to-point calls.  A step starts as soon as its predecessors are done,
// so a pipelined schedule receives segment k+1 while it sends segment k.
#pragma once

#include <mpi.h>

#include "flat/buffers.h"
#include "flat/schedule.h"

namespace hiercoll {

// `bufs` describes Send and Recv; its Tmp entry gives the datatype and unit
// size of scratch, which the executor allocates.  Message tags are the
// per-peer sequence numbers of the schedule, so messages match in the
// order the schedule lists them whatever order they are posted in.
// Returns an MPI error code.
//
// With `arrival`, the schedule is a position's in an arrival-order run
// (flat/arrival_order.h): peers are positions, a step waits until the
// rank holding its position is known, and the session's messages are
// waited for along with the schedule's.
class ArrivalSession;
int execute_schedule(const Schedule& s, const Buffers& bufs, MPI_Op op, MPI_Comm comm,
                     ArrivalSession* arrival = nullptr);

// The largest message tag (MPI_TAG_UB); schedules use tags from 0 up.
int largest_tag();

}  // namespace hiercoll
