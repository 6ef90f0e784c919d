// The C API: each function describes its call and runs it (runtime/run.cc),
// with MPI's own collective as the native path; the nonblocking functions
// describe the same call and start it (runtime/requests.h).
#include "runtime/hiercoll.h"

#include "runtime/call.h"

using hiercoll::ApiOp;
using hiercoll::block_args;
using hiercoll::Call;
using hiercoll::Op;
using hiercoll::same_type_args;
using hiercoll::typed_blocks_args;
using hiercoll::vector_args;

namespace {

// One description per operation, shared by the blocking and the nonblocking
// function.
Call bcast_call(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return Call{same_type_args(nullptr, buffer, count, datatype, MPI_OP_NULL, root, comm), ApiOp::kBcast, Op::kBcast,
              "MPI_Bcast"};
}
Call reduce_call(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm) {
  return Call{same_type_args(sendbuf, recvbuf, count, datatype, op, root, comm), ApiOp::kReduce, Op::kReduce,
              "MPI_Reduce"};
}
Call allreduce_call(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return Call{same_type_args(sendbuf, recvbuf, count, datatype, op, 0, comm), ApiOp::kAllreduce, Op::kAllreduce,
              "MPI_Allreduce"};
}
Call scan_call(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return Call{same_type_args(sendbuf, recvbuf, count, datatype, op, 0, comm), ApiOp::kScan, Op::kScan, "MPI_Scan"};
}
Call exscan_call(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return Call{same_type_args(sendbuf, recvbuf, count, datatype, op, 0, comm), ApiOp::kExscan, Op::kExscan,
              "MPI_Exscan"};
}
Call reduce_scatter_block_call(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm) {
  return Call{same_type_args(sendbuf, recvbuf, recvcount, datatype, op, 0, comm), ApiOp::kReduceScatterBlock,
              Op::kReduceScatter, "MPI_Reduce_scatter_block"};
}
Call reduce_scatter_call(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  Call c{same_type_args(sendbuf, recvbuf, 0, datatype, op, 0, comm), ApiOp::kReduceScatter, Op::kReduceScatter,
         "MPI_Reduce_scatter"};
  c.recvcounts = recvcounts;
  return c;
}
Call allgather_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm) {
  return Call{block_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm), ApiOp::kAllgather,
              Op::kAllgather, "MPI_Allgather"};
}
Call alltoall_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm) {
  return Call{block_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm), ApiOp::kAlltoall,
              Op::kAlltoall, "MPI_Alltoall"};
}
Call gather_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return Call{block_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), ApiOp::kGather,
              Op::kGather, "MPI_Gather"};
}
Call scatter_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return Call{block_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), ApiOp::kScatter,
              Op::kScatter, "MPI_Scatter"};
}
Call barrier_call(MPI_Comm comm) {
  return Call{block_args(nullptr, 0, MPI_DATATYPE_NULL, nullptr, 0, MPI_DATATYPE_NULL, 0, comm), ApiOp::kBarrier,
              Op::kBarrier, "MPI_Barrier"};
}

Call gatherv_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return Call{vector_args(sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, 0, recvcounts, displs, recvtype,
                          root, comm),
              ApiOp::kGatherv, Op::kGatherv, "MPI_Gatherv"};
}
Call scatterv_call(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return Call{vector_args(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype,
                          root, comm),
              ApiOp::kScatterv, Op::kScatterv, "MPI_Scatterv"};
}
Call allgatherv_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return Call{vector_args(sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, 0, recvcounts, displs, recvtype, 0,
                          comm),
              ApiOp::kAllgatherv, Op::kAllgatherv, "MPI_Allgatherv"};
}
Call alltoallv_call(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return Call{
      vector_args(sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts, rdispls, recvtype, 0, comm),
      ApiOp::kAlltoallv, Op::kAlltoallv, "MPI_Alltoallv"};
}
// An alltoallw runs alltoallv's schedules on bytes (runtime/plan_alltoallw.cc).
Call alltoallw_call(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                    void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm) {
  return Call{typed_blocks_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
              ApiOp::kAlltoallw, Op::kAlltoallv, "MPI_Alltoallw"};
}

// A nonblocking call: MPI refuses a null request pointer (MPI_ERR_REQUEST).
template <typename Native>
int start_call(const Call& c, MPI_Request* request, Native native) {
  if (!request) return hiercoll::raise_error(c.comm, MPI_ERR_REQUEST);
  return hiercoll::run_call(c, native, request);
}

}  // namespace

extern "C" {

int hiercoll_bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return run_call(bcast_call(buffer, count, datatype, root, comm),
                  [&] { return PMPI_Bcast(buffer, count, datatype, root, comm); });
}
int hiercoll_ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  return start_call(bcast_call(buffer, count, datatype, root, comm), request,
                    [&] { return PMPI_Ibcast(buffer, count, datatype, root, comm, request); });
}

int hiercoll_reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm) {
  return run_call(reduce_call(sendbuf, recvbuf, count, datatype, op, root, comm),
                  [&] { return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm); });
}
int hiercoll_ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                     MPI_Comm comm, MPI_Request* request) {
  return start_call(reduce_call(sendbuf, recvbuf, count, datatype, op, root, comm), request,
                    [&] { return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request); });
}

int hiercoll_allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  return run_call(allreduce_call(sendbuf, recvbuf, count, datatype, op, comm),
                  [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm); });
}
int hiercoll_iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Request* request) {
  return start_call(allreduce_call(sendbuf, recvbuf, count, datatype, op, comm), request,
                    [&] { return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request); });
}

int hiercoll_scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return run_call(scan_call(sendbuf, recvbuf, count, datatype, op, comm),
                  [&] { return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm); });
}
int hiercoll_iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  return start_call(scan_call(sendbuf, recvbuf, count, datatype, op, comm), request,
                    [&] { return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request); });
}

int hiercoll_exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm) {
  return run_call(exscan_call(sendbuf, recvbuf, count, datatype, op, comm),
                  [&] { return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm); });
}
int hiercoll_iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Request* request) {
  return start_call(exscan_call(sendbuf, recvbuf, count, datatype, op, comm), request,
                    [&] { return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request); });
}

int hiercoll_reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm) {
  return run_call(reduce_scatter_block_call(sendbuf, recvbuf, recvcount, datatype, op, comm),
                  [&] { return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm); });
}
int hiercoll_ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return start_call(
      reduce_scatter_block_call(sendbuf, recvbuf, recvcount, datatype, op, comm), request,
      [&] { return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request); });
}

int hiercoll_reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm) {
  return run_call(reduce_scatter_call(sendbuf, recvbuf, recvcounts, datatype, op, comm),
                  [&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm); });
}
int hiercoll_ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return start_call(reduce_scatter_call(sendbuf, recvbuf, recvcounts, datatype, op, comm), request,
                    [&] { return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request); });
}

int hiercoll_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm) {
  return run_call(allgather_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                  [&] { return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}
int hiercoll_iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return start_call(
      allgather_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), request,
      [&] { return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int hiercoll_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm) {
  return run_call(alltoall_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                  [&] { return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}
int hiercoll_ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return start_call(
      alltoall_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), request,
      [&] { return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int hiercoll_gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return run_call(gather_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), [&] {
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
}
int hiercoll_igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return start_call(gather_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), request, [&] {
    return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  });
}

int hiercoll_scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return run_call(scatter_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), [&] {
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
}
int hiercoll_iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return start_call(scatter_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), request,
                    [&] {
                      return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                           request);
                    });
}

int hiercoll_gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return run_call(gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm), [&] {
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  });
}
int hiercoll_igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Request* request) {
  return start_call(gatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
                    request, [&] {
                      return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                                           comm, request);
                    });
}

int hiercoll_scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return run_call(scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm), [&] {
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
}
int hiercoll_iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request* request) {
  return start_call(scatterv_call(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
                    request, [&] {
                      return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                                            comm, request);
                    });
}

int hiercoll_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return run_call(allgatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm), [&] {
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  });
}
int hiercoll_iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request* request) {
  return start_call(allgatherv_call(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                    request, [&] {
                      return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                              comm, request);
                    });
}

int hiercoll_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm) {
  return run_call(
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), [&] {
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
      });
}
int hiercoll_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Request* request) {
  return start_call(
      alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), request,
      [&] {
        return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                               request);
      });
}

int hiercoll_alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return run_call(
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), [&] {
        return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
      });
}
int hiercoll_ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
  return start_call(
      alltoallw_call(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), request,
      [&] {
        return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                               request);
      });
}

int hiercoll_barrier(MPI_Comm comm) {
  return run_call(barrier_call(comm), [&] { return PMPI_Barrier(comm); });
}
int hiercoll_ibarrier(MPI_Comm comm, MPI_Request* request) {
  return start_call(barrier_call(comm), request, [&] { return PMPI_Ibarrier(comm, request); });
}

}  // extern "C"
