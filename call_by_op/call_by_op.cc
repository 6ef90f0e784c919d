#include "call_by_op/call_by_op.h"

namespace hiercoll {

int call_by_op(ApiOp api, Via via, const CallArgs& a) {
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

}  // namespace hiercoll
