// hiercoll's side of a nonblocking fuzz case: several calls in flight on
// handles the side owns and frees while the calls are pending, completed
// in an order of each rank's own.
#pragma once

#include <mpi.h>

#include <vector>

#include "call_by_op/call_by_op.h"
#include "fuzz/fuzz_case.h"
#include "fuzz/fuzz_types.h"

namespace hiercoll::fuzz {

// Starts each of `calls` (c's operation) with MPI_I<op>, in order, each on
// duplicates of its derived datatypes and, where `op` is a user operation,
// a creation of its own, which it frees (MPI_Type_free, MPI_Op_free) right
// after the start and follows at once by handles of other meanings, apt to
// take the freed addresses; with c.free_comm every call runs on a
// duplicate of its communicator, freed (MPI_Comm_free) after the last
// start (not with hiercoll off: Open MPI 4.1's libnbc crashes on that).
// Then completes them as c.completion says, in this rank's order (seeded
// by `order_seed`).  Returns each call's outcome.
std::vector<int> run_nonblocking(const FuzzCase& c, const FuzzOp* op, std::vector<CallArgs> calls,
                                 uint64_t order_seed);

}  // namespace hiercoll::fuzz
