#include "call_by_op/call_by_op.h"

namespace hiercoll {

int call_by_op(ApiOp api, Via via, const CallArgs& a) {
  if (via == Via::kMpiNonblocking) {
    MPI_Request request = MPI_REQUEST_NULL;
    int rc = start_by_op(api, Via::kMpi, a, &request);
    if (rc != MPI_SUCCESS) return rc;
    return MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  const bool pmpi = via == Via::kPmpi;
  const void* s = a.sendbuf;
  void* r = a.recvbuf;
  const int sn = a.sendcount, rn = a.recvcount;
  const MPI_Datatype st = a.sendtype, rt = a.recvtype;
// PMPI_<name>(...) or MPI_<name>(...) with the same arguments.
#define HIERCOLL_CALL(name, ...) (pmpi ? PMPI_##name(__VA_ARGS__) : MPI_##name(__VA_ARGS__))
  switch (api) {
    case ApiOp::kBcast: return HIERCOLL_CALL(Bcast, r, rn, rt, a.root, a.comm);
    case ApiOp::kReduce: return HIERCOLL_CALL(Reduce, s, r, rn, rt, a.mpi_op, a.root, a.comm);
    case ApiOp::kAllreduce: return HIERCOLL_CALL(Allreduce, s, r, rn, rt, a.mpi_op, a.comm);
    case ApiOp::kScan: return HIERCOLL_CALL(Scan, s, r, rn, rt, a.mpi_op, a.comm);
    case ApiOp::kExscan: return HIERCOLL_CALL(Exscan, s, r, rn, rt, a.mpi_op, a.comm);
    case ApiOp::kReduceScatterBlock: return HIERCOLL_CALL(Reduce_scatter_block, s, r, rn, rt, a.mpi_op, a.comm);
    case ApiOp::kReduceScatter: return HIERCOLL_CALL(Reduce_scatter, s, r, a.recvcounts, rt, a.mpi_op, a.comm);
    case ApiOp::kAllgather: return HIERCOLL_CALL(Allgather, s, sn, st, r, rn, rt, a.comm);
    case ApiOp::kAlltoall: return HIERCOLL_CALL(Alltoall, s, sn, st, r, rn, rt, a.comm);
    case ApiOp::kGather: return HIERCOLL_CALL(Gather, s, sn, st, r, rn, rt, a.root, a.comm);
    case ApiOp::kScatter: return HIERCOLL_CALL(Scatter, s, sn, st, r, rn, rt, a.root, a.comm);
    case ApiOp::kBarrier: return HIERCOLL_CALL(Barrier, a.comm);
    case ApiOp::kGatherv: return HIERCOLL_CALL(Gatherv, s, sn, st, r, a.recvcounts, a.rdispls, rt, a.root, a.comm);
    case ApiOp::kScatterv: return HIERCOLL_CALL(Scatterv, s, a.sendcounts, a.sdispls, st, r, rn, rt, a.root, a.comm);
    case ApiOp::kAllgatherv: return HIERCOLL_CALL(Allgatherv, s, sn, st, r, a.recvcounts, a.rdispls, rt, a.comm);
    case ApiOp::kAlltoallv:
      return HIERCOLL_CALL(Alltoallv, s, a.sendcounts, a.sdispls, st, r, a.recvcounts, a.rdispls, rt, a.comm);
  }
#undef HIERCOLL_CALL
  return MPI_ERR_OTHER;
}

int start_by_op(ApiOp api, Via via, const CallArgs& a, MPI_Request* q) {
  const bool pmpi = via == Via::kPmpi;
  const void* s = a.sendbuf;
  void* r = a.recvbuf;
  const int sn = a.sendcount, rn = a.recvcount;
  const MPI_Datatype st = a.sendtype, rt = a.recvtype;
#define HIERCOLL_START(name, ...) (pmpi ? PMPI_I##name(__VA_ARGS__, q) : MPI_I##name(__VA_ARGS__, q))
  switch (api) {
    case ApiOp::kBcast: return HIERCOLL_START(bcast, r, rn, rt, a.root, a.comm);
    case ApiOp::kReduce: return HIERCOLL_START(reduce, s, r, rn, rt, a.mpi_op, a.root, a.comm);
    case ApiOp::kAllreduce: return HIERCOLL_START(allreduce, s, r, rn, rt, a.mpi_op, a.comm);
    case ApiOp::kScan: return HIERCOLL_START(scan, s, r, rn, rt, a.mpi_op, a.comm);
    case ApiOp::kExscan: return HIERCOLL_START(exscan, s, r, rn, rt, a.mpi_op, a.comm);
    case ApiOp::kReduceScatterBlock: return HIERCOLL_START(reduce_scatter_block, s, r, rn, rt, a.mpi_op, a.comm);
    case ApiOp::kReduceScatter: return HIERCOLL_START(reduce_scatter, s, r, a.recvcounts, rt, a.mpi_op, a.comm);
    case ApiOp::kAllgather: return HIERCOLL_START(allgather, s, sn, st, r, rn, rt, a.comm);
    case ApiOp::kAlltoall: return HIERCOLL_START(alltoall, s, sn, st, r, rn, rt, a.comm);
    case ApiOp::kGather: return HIERCOLL_START(gather, s, sn, st, r, rn, rt, a.root, a.comm);
    case ApiOp::kScatter: return HIERCOLL_START(scatter, s, sn, st, r, rn, rt, a.root, a.comm);
    case ApiOp::kBarrier: return pmpi ? PMPI_Ibarrier(a.comm, q) : MPI_Ibarrier(a.comm, q);
    case ApiOp::kGatherv: return HIERCOLL_START(gatherv, s, sn, st, r, a.recvcounts, a.rdispls, rt, a.root, a.comm);
    case ApiOp::kScatterv:
      return HIERCOLL_START(scatterv, s, a.sendcounts, a.sdispls, st, r, rn, rt, a.root, a.comm);
    case ApiOp::kAllgatherv: return HIERCOLL_START(allgatherv, s, sn, st, r, a.recvcounts, a.rdispls, rt, a.comm);
    case ApiOp::kAlltoallv:
      return HIERCOLL_START(alltoallv, s, a.sendcounts, a.sdispls, st, r, a.recvcounts, a.rdispls, rt, a.comm);
  }
#undef HIERCOLL_START
  return MPI_ERR_OTHER;
}

}  // namespace hiercoll
