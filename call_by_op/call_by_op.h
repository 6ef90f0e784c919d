// Calls the collective an ApiOp names, through MPI_* (hiercoll, where it is
// linked or preloaded) or through PMPI_* (the MPI library itself), blocking
// or nonblocking.
#pragma once

#include <mpi.h>

#include "runtime/call_args.h"
#include "runtime/stats.h"

namespace hiercoll {

// kMpiNonblocking: MPI_I<api>, then MPI_Wait (which returns the call's
// outcome).
enum class Via { kMpi, kPmpi, kMpiNonblocking };

// Calls MPI_<api> or PMPI_<api> with a; returns the call's MPI return code.
int call_by_op(ApiOp api, Via via, const CallArgs& a);
// Starts MPI_I<api> (kMpi) or PMPI_I<api> (kPmpi) with a.
int start_by_op(ApiOp api, Via via, const CallArgs& a, MPI_Request* request);
// Makes the persistent request of a, not started: Open MPI's MPIX_<api>_init
// (kMpi; hiercoll's where it is linked or preloaded) or PMPIX_<api>_init
// (kPmpi: Open MPI's own, libnbc).
int init_by_op(ApiOp api, Via via, const CallArgs& a, MPI_Info info, MPI_Request* request);

}  // namespace hiercoll
