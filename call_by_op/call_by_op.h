// Calls the collective an ApiOp names, through MPI_* (hiercoll, where it is
// linked or preloaded) or through PMPI_* (the MPI library itself).
#pragma once

#include <mpi.h>

#include "hier/stats.h"

namespace hiercoll {

// The arguments of any of the collectives.  Operations with one count and
// datatype (bcast and the reductions) take recvcount and recvtype; bcast's
// buffer is recvbuf; only reduce_scatter reads recvcounts.
// (Named as the arguments of hier::Call, hier/call.h.)
struct CallArgs {
  MPI_Comm comm = MPI_COMM_NULL;
  const void* sendbuf = nullptr;
  int sendcount = 0;
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  void* recvbuf = nullptr;
  int recvcount = 0;
  MPI_Datatype recvtype = MPI_DATATYPE_NULL;
  const int* recvcounts = nullptr;
  MPI_Op mpi_op = MPI_OP_NULL;
  int root = 0;
};

// The arguments of a call whose send and receive sides have the same count
// and datatype (per block for the block collectives).
CallArgs same_type_args(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op mpi_op, int root,
                        MPI_Comm comm);

enum class Via { kMpi, kPmpi };

// Calls MPI_<api> or PMPI_<api> with a; returns the call's MPI return code.
int call_by_op(ApiOp api, Via via, const CallArgs& a);

}  // namespace hiercoll
