// The Fortran bindings of hiercoll's collectives, blocking, nonblocking and
// persistent, and of the process's start and end and the hints (the
// completion functions: interpose_fortran_requests.cc).  Open MPI's Fortran
// libraries call PMPI_* directly, so a Fortran program never reaches the C
// MPI_* symbols of interpose*.cc; these symbols take its calls first (when
// libhiercoll is preloaded, or linked before Open MPI's Fortran libraries),
// each under Open MPI's Fortran names (runtime/fortran_binding.h).
//
// One line per collective: its Fortran arguments, in order, without
// ierror (runtime/fortran_args.h converts each argument by the C
// function's parameter type); the line makes MPI_<OP> (hiercoll_<op>),
// MPI_I<OP> (hiercoll_i<op>, a request added) and, where Open MPI has its
// pcollreq extension, MPIX_<OP>_INIT (hiercoll_<op>_init, an info and a
// request added).  Requests go both ways through MPI_Request_f2c/c2f.
//
// Communicator constructors need no Fortran form: a Fortran handle passes
// through MPI_Comm_f2c, which knows only live communicators (Arg<MPI_Comm>
// in fortran_args.h).
#include <mpi.h>
// After mpi.h, which it needs.
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include "runtime/fortran_args.h"
#include "runtime/fortran_binding.h"
#include "runtime/hiercoll.h"

using hiercoll::fortran::FBuf;
using hiercoll::fortran::FInt;
using hiercoll::fortran::FOut;
using hiercoll::fortran::ReadTypes;

namespace {

// Alltoallw's datatypes, one per peer of comm (the remote group's of an
// intercommunicator): converted for the call; the send side's are not read
// in place, where MPI ignores them.
int peers(MPI_Comm comm) {
  int inter = 0, n = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return 0;
  (inter ? PMPI_Comm_remote_size : PMPI_Comm_size)(comm, &n);
  return n;
}
int alltoallw(const void* sbuf, const int* scounts, const int* sdispls, int* stypes, void* rbuf, const int* rcounts,
              const int* rdispls, int* rtypes, MPI_Comm comm) {
  const int n = peers(comm);
  return hiercoll_alltoallw(sbuf, scounts, sdispls, ReadTypes(sbuf == MPI_IN_PLACE ? 0 : n, stypes), rbuf, rcounts,
                            rdispls, ReadTypes(n, rtypes), comm);
}
int ialltoallw(const void* sbuf, const int* scounts, const int* sdispls, int* stypes, void* rbuf, const int* rcounts,
               const int* rdispls, int* rtypes, MPI_Comm comm, MPI_Request* request) {
  const int n = peers(comm);
  return hiercoll_ialltoallw(sbuf, scounts, sdispls, ReadTypes(sbuf == MPI_IN_PLACE ? 0 : n, stypes), rbuf,
                             rcounts, rdispls, ReadTypes(n, rtypes), comm, request);
}
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
int alltoallw_init(const void* sbuf, const int* scounts, const int* sdispls, int* stypes, void* rbuf,
                   const int* rcounts, const int* rdispls, int* rtypes, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request) {
  const int n = peers(comm);
  return hiercoll_alltoallw_init(sbuf, scounts, sdispls, ReadTypes(sbuf == MPI_IN_PLACE ? 0 : n, stypes), rbuf,
                                 rcounts, rdispls, ReadTypes(n, rtypes), comm, info, request);
}
#endif

// C functions for the routines whose C form takes other arguments.
int init() { return MPI_Init(nullptr, nullptr); }
int init_thread(int required, int* provided) { return MPI_Init_thread(nullptr, nullptr, required, provided); }
int comm_dup_with_info(MPI_Comm comm, MPI_Info info, int* newcomm) {
  MPI_Comm c = MPI_COMM_NULL;
  const int rc = MPI_Comm_dup_with_info(comm, info, &c);
  if (rc == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(c);
  return rc;
}

}  // namespace

// HIERCOLL_FORTRAN_COLLECTIVE(name, NAME, (parameters), (arguments)): the
// collective's three forms; the lists as the blocking C function takes
// them, without ierror, or as one of the SIGNATURE_* below.
#define HIERCOLL_FORTRAN_COLLECTIVE(name, NAME, ...) HIERCOLL_FORTRAN_COLLECTIVE_(name, NAME, __VA_ARGS__)
#define HIERCOLL_FORTRAN_COLLECTIVE_(name, NAME, params, args)                                                  \
  HIERCOLL_FORTRAN(name, NAME, hiercoll_##name, (HIERCOLL_FORTRAN_SPLICE params, FOut ierr), args)              \
  HIERCOLL_FORTRAN(i##name, I##NAME, hiercoll_i##name, (HIERCOLL_FORTRAN_SPLICE params, FOut request, FOut ierr), \
                   (HIERCOLL_FORTRAN_SPLICE args, request))                                                     \
  HIERCOLL_FORTRAN_PERSISTENT(name, NAME, params, args)

#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define HIERCOLL_FORTRAN_PERSISTENT(name, NAME, params, args)                                 \
  HIERCOLL_FORTRAN_AS(mpix_##name##_init, MPIX_##NAME##_INIT, hiercoll_##name##_init,         \
                      (HIERCOLL_FORTRAN_SPLICE params, FInt info, FOut request, FOut ierr), \
                      (HIERCOLL_FORTRAN_SPLICE args, info, request))
#else
#define HIERCOLL_FORTRAN_PERSISTENT(name, NAME, params, args)
#endif

// clang-format off
// Argument lists several collectives share (count: an array for reduce_scatter).
#define SIGNATURE_REDUCTION \
  (FBuf sbuf, FBuf rbuf, FInt count, FInt type, FInt op, FInt comm), (sbuf, rbuf, count, type, op, comm)
#define SIGNATURE_BLOCKS                                                                 \
  (FBuf sbuf, FInt scount, FInt stype, FBuf rbuf, FInt rcount, FInt rtype, FInt comm), \
  (sbuf, scount, stype, rbuf, rcount, rtype, comm)
#define SIGNATURE_ROOTED_BLOCKS                                                                    \
  (FBuf sbuf, FInt scount, FInt stype, FBuf rbuf, FInt rcount, FInt rtype, FInt root, FInt comm), \
  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm)

HIERCOLL_FORTRAN_COLLECTIVE(bcast, BCAST, (FBuf buf, FInt count, FInt type, FInt root, FInt comm),
                            (buf, count, type, root, comm))
HIERCOLL_FORTRAN_COLLECTIVE(reduce, REDUCE,
                            (FBuf sbuf, FBuf rbuf, FInt count, FInt type, FInt op, FInt root, FInt comm),
                            (sbuf, rbuf, count, type, op, root, comm))
HIERCOLL_FORTRAN_COLLECTIVE(allreduce, ALLREDUCE, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN_COLLECTIVE(allgather, ALLGATHER, SIGNATURE_BLOCKS)
HIERCOLL_FORTRAN_COLLECTIVE(reduce_scatter_block, REDUCE_SCATTER_BLOCK, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN_COLLECTIVE(reduce_scatter, REDUCE_SCATTER, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN_COLLECTIVE(alltoall, ALLTOALL, SIGNATURE_BLOCKS)
HIERCOLL_FORTRAN_COLLECTIVE(scan, SCAN, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN_COLLECTIVE(exscan, EXSCAN, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN_COLLECTIVE(barrier, BARRIER, (FInt comm), (comm))
HIERCOLL_FORTRAN_COLLECTIVE(gather, GATHER, SIGNATURE_ROOTED_BLOCKS)
HIERCOLL_FORTRAN_COLLECTIVE(scatter, SCATTER, SIGNATURE_ROOTED_BLOCKS)
HIERCOLL_FORTRAN_COLLECTIVE(gatherv, GATHERV,
                            (FBuf sbuf, FInt scount, FInt stype, FBuf rbuf, FInt rcounts, FInt displs, FInt rtype,
                             FInt root, FInt comm),
                            (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm))
HIERCOLL_FORTRAN_COLLECTIVE(scatterv, SCATTERV,
                            (FBuf sbuf, FInt scounts, FInt displs, FInt stype, FBuf rbuf, FInt rcount, FInt rtype,
                             FInt root, FInt comm),
                            (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm))
HIERCOLL_FORTRAN_COLLECTIVE(allgatherv, ALLGATHERV,
                            (FBuf sbuf, FInt scount, FInt stype, FBuf rbuf, FInt rcounts, FInt displs, FInt rtype,
                             FInt comm),
                            (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))
HIERCOLL_FORTRAN_COLLECTIVE(alltoallv, ALLTOALLV,
                            (FBuf sbuf, FInt scounts, FInt sdispls, FInt stype, FBuf rbuf, FInt rcounts,
                             FInt rdispls, FInt rtype, FInt comm),
                            (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))

// Alltoallw, whose datatype arrays are converted by adapters (above).
HIERCOLL_FORTRAN(alltoallw, ALLTOALLW, alltoallw,
                 (FBuf sbuf, FInt scounts, FInt sdispls, FOut stypes, FBuf rbuf, FInt rcounts, FInt rdispls,
                  FOut rtypes, FInt comm, FOut ierr),
                 (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm))
HIERCOLL_FORTRAN(ialltoallw, IALLTOALLW, ialltoallw,
                 (FBuf sbuf, FInt scounts, FInt sdispls, FOut stypes, FBuf rbuf, FInt rcounts, FInt rdispls,
                  FOut rtypes, FInt comm, FOut request, FOut ierr),
                 (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, request))
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
HIERCOLL_FORTRAN_AS(mpix_alltoallw_init, MPIX_ALLTOALLW_INIT, alltoallw_init,
                    (FBuf sbuf, FInt scounts, FInt sdispls, FOut stypes, FBuf rbuf, FInt rcounts, FInt rdispls,
                     FOut rtypes, FInt comm, FInt info, FOut request, FOut ierr),
                    (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, info, request))
#endif

// The process's start and end (interpose_init.cc) and the hints (interpose.cc).
HIERCOLL_FORTRAN(init, INIT, init, (FOut ierr), ())
HIERCOLL_FORTRAN(init_thread, INIT_THREAD, init_thread, (FInt required, FOut provided, FOut ierr), (required, provided))
HIERCOLL_FORTRAN(finalize, FINALIZE, MPI_Finalize, (FOut ierr), ())
HIERCOLL_FORTRAN(comm_set_info, COMM_SET_INFO, MPI_Comm_set_info, (FInt comm, FInt info, FOut ierr), (comm, info))
HIERCOLL_FORTRAN(comm_dup_with_info, COMM_DUP_WITH_INFO, comm_dup_with_info,
                 (FInt comm, FInt info, FOut newcomm, FOut ierr), (comm, info, newcomm))
// clang-format on
