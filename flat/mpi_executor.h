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
int execute_schedule(const Schedule& s, const Buffers& bufs, MPI_Op op, MPI_Comm comm);

}  // namespace hiercoll
