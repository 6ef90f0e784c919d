// Calls the collective an ApiOp names, through MPI_* (hiercoll, where it is
// linked or preloaded) or through PMPI_* (the MPI library itself).
#pragma once

#include <mpi.h>

#include "runtime/call_args.h"
#include "runtime/stats.h"

namespace hiercoll {

enum class Via { kMpi, kPmpi };

// Calls MPI_<api> or PMPI_<api> with a; returns the call's MPI return code.
int call_by_op(ApiOp api, Via via, const CallArgs& a);

}  // namespace hiercoll
