// HIERCOLL_PROFILE=FILE: which collectives the application calls, at which
// sizes, how often, on which layouts (select/profile_file.h).  Each call is
// counted once, by rank 0 of its communicator; MPI_Finalize gathers the
// counts to rank 0 of MPI_COMM_WORLD, which adds them to FILE (several runs
// accumulate).  `hiercoll tune --profile FILE` tunes what was recorded.
#pragma once

#include <cstdint>

#include "runtime/comm_state.h"
#include "runtime/stats.h"

namespace hiercoll {

// Whether HIERCOLL_PROFILE is set (read once).
bool profiling();
// Counts one call of op with `bytes` (tuning_bytes) on the communicator of
// `state` (its topology known).
void profile_call(CommState* state, ApiOp op, int64_t bytes);
// Collective over MPI_COMM_WORLD (MPI_Finalize): writes the file.
void write_profile();

}  // namespace hiercoll
