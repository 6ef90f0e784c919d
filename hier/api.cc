// The C API: each function describes its call and runs it (hier/run.cc),
// with MPI's own collective as the native path.
#include "hier/hiercoll.h"

#include "hier/call.h"

using hiercoll::ApiOp;
using hiercoll::Call;
using hiercoll::Op;

namespace {

// A reduction-shaped call: one datatype and count on both sides.
Call reduction(ApiOp api, Op op, const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype t,
               MPI_Op mop, int root, MPI_Comm comm) {
  Call c{api, op, name};
  c.comm = comm;
  c.sendbuf = sendbuf;
  c.sendcount = c.recvcount = count;
  c.sendtype = c.recvtype = t;
  c.recvbuf = recvbuf;
  c.mpi_op = mop;
  c.root = root;
  return c;
}

// A block-shaped call: send and receive sides with their own types.
Call blocks(ApiOp api, Op op, const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call c{api, op, name};
  c.comm = comm;
  c.sendbuf = sendbuf;
  c.sendcount = sendcount;
  c.sendtype = sendtype;
  c.recvbuf = recvbuf;
  c.recvcount = recvcount;
  c.recvtype = recvtype;
  c.root = root;
  return c;
}

}  // namespace

extern "C" {

int hiercoll_bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  Call c = reduction(ApiOp::kBcast, Op::kBcast, "MPI_Bcast", nullptr, buffer, count, datatype, MPI_OP_NULL, root, comm);
  return run_call(c, [&] { return PMPI_Bcast(buffer, count, datatype, root, comm); });
}

int hiercoll_reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm) {
  Call c = reduction(ApiOp::kReduce, Op::kReduce, "MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm);
  return run_call(c, [&] { return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm); });
}

int hiercoll_allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  Call c = reduction(ApiOp::kAllreduce, Op::kAllreduce, "MPI_Allreduce", sendbuf, recvbuf, count, datatype, op, 0, comm);
  return run_call(c, [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm); });
}

int hiercoll_scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  Call c = reduction(ApiOp::kScan, Op::kScan, "MPI_Scan", sendbuf, recvbuf, count, datatype, op, 0, comm);
  return run_call(c, [&] { return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm); });
}

int hiercoll_exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm) {
  Call c = reduction(ApiOp::kExscan, Op::kExscan, "MPI_Exscan", sendbuf, recvbuf, count, datatype, op, 0, comm);
  return run_call(c, [&] { return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm); });
}

int hiercoll_reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm) {
  Call c = reduction(ApiOp::kReduceScatterBlock, Op::kReduceScatter, "MPI_Reduce_scatter_block", sendbuf, recvbuf,
                     recvcount, datatype, op, 0, comm);
  return run_call(c, [&] { return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm); });
}

int hiercoll_reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm) {
  Call c = reduction(ApiOp::kReduceScatter, Op::kReduceScatter, "MPI_Reduce_scatter", sendbuf, recvbuf, 0, datatype,
                     op, 0, comm);
  c.recvcounts = recvcounts;
  return run_call(c, [&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm); });
}

int hiercoll_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm) {
  Call c = blocks(ApiOp::kAllgather, Op::kAllgather, "MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, 0, comm);
  return run_call(c, [&] { return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}

int hiercoll_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm) {
  Call c = blocks(ApiOp::kAlltoall, Op::kAlltoall, "MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, 0, comm);
  return run_call(c, [&] { return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}

int hiercoll_gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call c = blocks(ApiOp::kGather, Op::kGather, "MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, root, comm);
  return run_call(
      c, [&] { return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

int hiercoll_scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call c = blocks(ApiOp::kScatter, Op::kScatter, "MPI_Scatter", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, root, comm);
  return run_call(
      c, [&] { return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

int hiercoll_barrier(MPI_Comm comm) {
  Call c{ApiOp::kBarrier, Op::kBarrier, "MPI_Barrier"};
  c.comm = comm;
  return run_call(c, [&] { return PMPI_Barrier(comm); });
}

}  // extern "C"
