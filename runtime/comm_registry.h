// Remembers freed communicator handles, so that a call on a stale handle is
// reported as MPI_ERR_COMM instead of crashing inside MPI (Open MPI frees
// the object, and any use of the handle reads freed memory).  A handle
// stops being stale when a communicator constructor returns it again.
// The registry holds the kMaxFreedComms most recently freed handles at most
// (older ones are forgotten: a call on one is then undefined, as in MPI).
// Thread-safe.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace hiercoll {

void note_comm_freed(MPI_Comm comm);
void note_comm_created(MPI_Comm comm);
bool is_freed_comm(MPI_Comm comm);

constexpr size_t kMaxFreedComms = 4096;
size_t freed_comm_count();  // tests, hiercoll_memory

}  // namespace hiercoll
