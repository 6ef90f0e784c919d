// The C API's persistent collectives (runtime/persistent.h): each
// describes its call as the blocking function does and makes its request;
// a call the library hands to MPI becomes Open MPI's own persistent
// request (PMPIX_<op>_init, its pcollreq extension).
#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include "runtime/call.h"
#include "runtime/hiercoll.h"
#include "runtime/persistent.h"

using hiercoll::ApiOp;
using hiercoll::block_args;
using hiercoll::Call;
using hiercoll::Op;
using hiercoll::same_type_args;
using hiercoll::vector_args;

namespace {

Call reduce_scatter_call(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  Call c{same_type_args(sendbuf, recvbuf, 0, datatype, op, 0, comm), ApiOp::kReduceScatter, Op::kReduceScatter,
         "MPIX_Reduce_scatter_init"};
  c.recvcounts = recvcounts;
  return c;
}

// hiercoll's request, or MPI's own where the call goes to MPI.  Without
// the extension (an MPI library with no persistent collectives) every call
// is hiercoll's, and one it would hand to MPI is refused.
template <typename Native>
int init_call(const Call& c, MPI_Request* request, Native native) {
  if (!request) return hiercoll::raise_error(c.comm, MPI_ERR_REQUEST);
  const int rc = hiercoll::init_persistent(c, request);
  if (rc != -1) return rc;
  const int nrc = native();
  if (nrc == MPI_SUCCESS) hiercoll::note_native_persistent(*request, c);
  return nrc;
}

}  // namespace

#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define HIERCOLL_NATIVE_INIT(call) call
#else
#define HIERCOLL_NATIVE_INIT(call) hiercoll::raise_error(comm, MPI_ERR_UNSUPPORTED_OPERATION)
#endif

extern "C" {
int hiercoll_bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request) {
  return init_call(Call{same_type_args(nullptr, buffer, count, datatype, MPI_OP_NULL, root, comm), ApiOp::kBcast,
                        Op::kBcast, "MPIX_Bcast_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Bcast_init(buffer, count, datatype, root, comm, info, request));
                   });
}
int hiercoll_reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(Call{same_type_args(sendbuf, recvbuf, count, datatype, op, root, comm), ApiOp::kReduce, Op::kReduce,
                        "MPIX_Reduce_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(
                         PMPIX_Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request));
                   });
}
int hiercoll_allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(
      Call{same_type_args(sendbuf, recvbuf, count, datatype, op, 0, comm), ApiOp::kAllreduce, Op::kAllreduce,
           "MPIX_Allreduce_init"},
      request, [&] {
        return HIERCOLL_NATIVE_INIT(PMPIX_Allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request));
      });
}
int hiercoll_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(Call{block_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm),
                        ApiOp::kAllgather, Op::kAllgather, "MPIX_Allgather_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                                      recvtype, comm, info, request));
                   });
}
int hiercoll_reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(Call{same_type_args(sendbuf, recvbuf, recvcount, datatype, op, 0, comm), ApiOp::kReduceScatterBlock,
                        Op::kReduceScatter, "MPIX_Reduce_scatter_block_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype,
                                                                                 op, comm, info, request));
                   });
}
int hiercoll_reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(reduce_scatter_call(sendbuf, recvbuf, recvcounts, datatype, op, comm), request, [&] {
    return HIERCOLL_NATIVE_INIT(
        PMPIX_Reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request));
  });
}
int hiercoll_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(Call{block_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm),
                        ApiOp::kAlltoall, Op::kAlltoall, "MPIX_Alltoall_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                                     recvtype, comm, info, request));
                   });
}
int hiercoll_scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request* request) {
  return init_call(
      Call{same_type_args(sendbuf, recvbuf, count, datatype, op, 0, comm), ApiOp::kScan, Op::kScan, "MPIX_Scan_init"},
      request, [&] {
        return HIERCOLL_NATIVE_INIT(PMPIX_Scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request));
      });
}
int hiercoll_exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         MPI_Info info, MPI_Request* request) {
  return init_call(
      Call{same_type_args(sendbuf, recvbuf, count, datatype, op, 0, comm), ApiOp::kExscan, Op::kExscan,
           "MPIX_Exscan_init"},
      request, [&] {
        return HIERCOLL_NATIVE_INIT(PMPIX_Exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request));
      });
}
int hiercoll_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(Call{block_args(nullptr, 0, MPI_DATATYPE_NULL, nullptr, 0, MPI_DATATYPE_NULL, 0, comm),
                        ApiOp::kBarrier, Op::kBarrier, "MPIX_Barrier_init"},
                   request, [&] { return HIERCOLL_NATIVE_INIT(PMPIX_Barrier_init(comm, info, request)); });
}
int hiercoll_gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(Call{block_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
                        ApiOp::kGather, Op::kGather, "MPIX_Gather_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                                   recvtype, root, comm, info, request));
                   });
}
int hiercoll_scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(Call{block_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
                        ApiOp::kScatter, Op::kScatter, "MPIX_Scatter_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                                    recvtype, root, comm, info, request));
                   });
}
int hiercoll_gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Info info, MPI_Request* request) {
  return init_call(Call{vector_args(sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, 0, recvcounts, displs,
                                    recvtype, root, comm),
                        ApiOp::kGatherv, Op::kGatherv, "MPIX_Gatherv_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                                    displs, recvtype, root, comm, info, request));
                   });
}
int hiercoll_scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                           void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                           MPI_Request* request) {
  return init_call(Call{vector_args(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, nullptr, nullptr,
                                    recvtype, root, comm),
                        ApiOp::kScatterv, Op::kScatterv, "MPIX_Scatterv_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                                                     recvcount, recvtype, root, comm, info, request));
                   });
}
int hiercoll_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Info info, MPI_Request* request) {
  return init_call(Call{vector_args(sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, 0, recvcounts, displs,
                                    recvtype, 0, comm),
                        ApiOp::kAllgatherv, Op::kAllgatherv, "MPIX_Allgatherv_init"},
                   request, [&] {
                     return HIERCOLL_NATIVE_INIT(PMPIX_Allgatherv_init(
                         sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, info, request));
                   });
}
int hiercoll_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_call(
      Call{vector_args(sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts, rdispls, recvtype, 0, comm),
           ApiOp::kAlltoallv, Op::kAlltoallv, "MPIX_Alltoallv_init"},
      request, [&] {
        return HIERCOLL_NATIVE_INIT(PMPIX_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                                         rdispls, recvtype, comm, info, request));
      });
}
int hiercoll_alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                            MPI_Request* request) {
  return init_call(
      Call{hiercoll::typed_blocks_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                       recvtypes, comm),
           ApiOp::kAlltoallw, Op::kAlltoallv, "MPIX_Alltoallw_init"},
      request, [&] {
        return HIERCOLL_NATIVE_INIT(PMPIX_Alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                                         rdispls, recvtypes, comm, info, request));
      });
}
}  // extern "C"
