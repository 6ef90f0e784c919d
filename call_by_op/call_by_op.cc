#include "call_by_op/call_by_op.h"

// After mpi.h, which it needs: MPIX_<op>_init and PMPIX_<op>_init.
#include <mpi-ext.h>

namespace hiercoll {

// Every ApiOp with the arguments MPI takes from CallArgs a, as
// X(api op, blocking name, nonblocking name, arguments...): the blocking
// name is also the persistent one's stem (MPI_Bcast, MPIX_Bcast_init), the
// nonblocking one follows MPI_I (MPI_Ibcast).
#define HIERCOLL_EVERY_OP(X)                                                                                        \
  X(kBcast, Bcast, bcast, a.recvbuf, a.recvcount, a.recvtype, a.root, a.comm)                                      \
  X(kReduce, Reduce, reduce, a.sendbuf, a.recvbuf, a.recvcount, a.recvtype, a.mpi_op, a.root, a.comm)              \
  X(kAllreduce, Allreduce, allreduce, a.sendbuf, a.recvbuf, a.recvcount, a.recvtype, a.mpi_op, a.comm)             \
  X(kScan, Scan, scan, a.sendbuf, a.recvbuf, a.recvcount, a.recvtype, a.mpi_op, a.comm)                            \
  X(kExscan, Exscan, exscan, a.sendbuf, a.recvbuf, a.recvcount, a.recvtype, a.mpi_op, a.comm)                      \
  X(kReduceScatterBlock, Reduce_scatter_block, reduce_scatter_block, a.sendbuf, a.recvbuf, a.recvcount,            \
    a.recvtype, a.mpi_op, a.comm)                                                                                  \
  X(kReduceScatter, Reduce_scatter, reduce_scatter, a.sendbuf, a.recvbuf, a.recvcounts, a.recvtype, a.mpi_op,      \
    a.comm)                                                                                                        \
  X(kAllgather, Allgather, allgather, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype,      \
    a.comm)                                                                                                        \
  X(kAlltoall, Alltoall, alltoall, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm) \
  X(kGather, Gather, gather, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root,       \
    a.comm)                                                                                                        \
  X(kScatter, Scatter, scatter, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.root,    \
    a.comm)                                                                                                        \
  X(kBarrier, Barrier, barrier, a.comm)                                                                            \
  X(kGatherv, Gatherv, gatherv, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcounts, a.rdispls,            \
    a.recvtype, a.root, a.comm)                                                                                    \
  X(kScatterv, Scatterv, scatterv, a.sendbuf, a.sendcounts, a.sdispls, a.sendtype, a.recvbuf, a.recvcount,         \
    a.recvtype, a.root, a.comm)                                                                                    \
  X(kAllgatherv, Allgatherv, allgatherv, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcounts, a.rdispls,   \
    a.recvtype, a.comm)                                                                                            \
  X(kAlltoallv, Alltoallv, alltoallv, a.sendbuf, a.sendcounts, a.sdispls, a.sendtype, a.recvbuf, a.recvcounts,     \
    a.rdispls, a.recvtype, a.comm)                                                                                 \
  X(kAlltoallw, Alltoallw, alltoallw, a.sendbuf, a.sendcounts, a.sdispls, a.sendtypes, a.recvbuf, a.recvcounts,    \
    a.rdispls, a.recvtypes, a.comm)

int call_by_op(ApiOp api, Via via, const CallArgs& a) {
  if (via == Via::kMpiNonblocking) {
    MPI_Request request = MPI_REQUEST_NULL;
    int rc = start_by_op(api, Via::kMpi, a, &request);
    if (rc != MPI_SUCCESS) return rc;
    return MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  const bool pmpi = via == Via::kPmpi;
#define HIERCOLL_CALL(op, name, iname, ...) \
  case ApiOp::op: return pmpi ? PMPI_##name(__VA_ARGS__) : MPI_##name(__VA_ARGS__);
  switch (api) { HIERCOLL_EVERY_OP(HIERCOLL_CALL) }
#undef HIERCOLL_CALL
  return MPI_ERR_OTHER;
}

int start_by_op(ApiOp api, Via via, const CallArgs& a, MPI_Request* q) {
  const bool pmpi = via == Via::kPmpi;
#define HIERCOLL_START(op, name, iname, ...) \
  case ApiOp::op: return pmpi ? PMPI_I##iname(__VA_ARGS__, q) : MPI_I##iname(__VA_ARGS__, q);
  switch (api) { HIERCOLL_EVERY_OP(HIERCOLL_START) }
#undef HIERCOLL_START
  return MPI_ERR_OTHER;
}

int init_by_op(ApiOp api, Via via, const CallArgs& a, MPI_Info info, MPI_Request* q) {
  const bool pmpi = via == Via::kPmpi;
#define HIERCOLL_INIT(op, name, iname, ...) \
  case ApiOp::op: return pmpi ? PMPIX_##name##_init(__VA_ARGS__, info, q) : MPIX_##name##_init(__VA_ARGS__, info, q);
  switch (api) { HIERCOLL_EVERY_OP(HIERCOLL_INIT) }
#undef HIERCOLL_INIT
  return MPI_ERR_OTHER;
}

#undef HIERCOLL_EVERY_OP

}  // namespace hiercoll
