// The arguments of any of the collectives the library implements, as MPI
// takes them.  Operations with one count and datatype (bcast and the
// reductions) use recvcount and recvtype; bcast's buffer is recvbuf;
// reduce_scatter and the v-variants read recvcounts.
#pragma once

#include <mpi.h>

namespace hiercoll {

struct CallArgs {
  const void* sendbuf = nullptr;
  int sendcount = 0;
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  void* recvbuf = nullptr;
  int recvcount = 0;
  MPI_Datatype recvtype = MPI_DATATYPE_NULL;
  const int* recvcounts = nullptr;
  MPI_Op mpi_op = MPI_OP_NULL;
  int root = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  // v-variants: the send side's counts and displacements (scatterv,
  // alltoallv) and the receive side's displacements (gatherv, allgatherv,
  // alltoallv; their counts are recvcounts).
  const int* sendcounts = nullptr;
  const int* sdispls = nullptr;
  const int* rdispls = nullptr;
  // alltoallw: a datatype per peer on each side (displacements in bytes).
  const MPI_Datatype* sendtypes = nullptr;
  const MPI_Datatype* recvtypes = nullptr;
};

// A call whose send and receive sides have the same count and datatype.
inline CallArgs same_type_args(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op mpi_op,
                               int root, MPI_Comm comm) {
  return CallArgs{sendbuf, count, type, recvbuf, count, type, nullptr, mpi_op, root, comm};
}

// A block collective's call: each side with its own count and datatype.
inline CallArgs block_args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return CallArgs{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, MPI_OP_NULL, root, comm};
}

// A v-variant's call: counts and displacements per rank on the side(s)
// that hold one block per rank.
inline CallArgs vector_args(const void* sendbuf, int sendcount, const int* sendcounts, const int* sdispls,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount, const int* recvcounts,
                            const int* rdispls, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallArgs c{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, recvcounts, MPI_OP_NULL, root, comm};
  c.sendcounts = sendcounts;
  c.sdispls = sdispls;
  c.rdispls = rdispls;
  return c;
}

// An alltoallw's call: per peer a count, a displacement in bytes and a
// datatype on each side.
inline CallArgs typed_blocks_args(const void* sendbuf, const int* sendcounts, const int* sdispls,
                                  const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts,
                                  const int* rdispls, const MPI_Datatype* recvtypes, MPI_Comm comm) {
  CallArgs c = vector_args(sendbuf, 0, sendcounts, sdispls, MPI_BYTE, recvbuf, 0, recvcounts, rdispls, MPI_BYTE, 0,
                           comm);
  c.sendtypes = sendtypes;
  c.recvtypes = recvtypes;
  return c;
}

}  // namespace hiercoll
