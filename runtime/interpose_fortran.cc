// The Fortran bindings of what hiercoll interposes.  Open MPI's Fortran
// libraries call PMPI_* directly, so a Fortran program never reaches the C
// MPI_* symbols of interpose.cc; these symbols take its calls first (when
// libhiercoll is preloaded, or linked before Open MPI's Fortran libraries).
//
// One line per routine: its Fortran arguments, in order, and the C function
// that serves it (runtime/fortran_args.h converts each argument by that
// function's parameter type).  Each is exported under every name Open MPI
// 4.1 exports it under (nm -D): mpi_x_, mpi_x__, mpi_x and MPI_X from
// libmpi_mpifh (mpif.h and `use mpi`) and mpi_x_f08_ from libmpi_usempif08
// (`use mpi_f08`, whose handles are one INTEGER and whose ierror is
// OPTIONAL, so the same function serves it).  tests/fortran/symbols_test.sh
// checks the names against Open MPI's.
//
// Communicator constructors and MPI_Comm_free need no Fortran form: a
// Fortran handle passes through MPI_Comm_f2c, which knows only live
// communicators (Arg<MPI_Comm> in fortran_args.h).
#include <mpi.h>

#include "runtime/fortran_args.h"
#include "runtime/hiercoll.h"

using hiercoll::fortran::FBuf;
using hiercoll::fortran::FInt;
using hiercoll::fortran::FOut;
using hiercoll::fortran::forward;

namespace {

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

#define HIERCOLL_FORTRAN_NAME(impl, name) extern "C" decltype(impl) name __attribute__((alias(#impl)));

// HIERCOLL_FORTRAN(name, NAME, c_function, (parameters), (arguments)):
// hiercoll_fortran_<name>, and its aliases under Open MPI's names.  The
// parameters end with ierror; the arguments are the others, as c_function
// takes them.  The two lists may come as one of the SIGNATURE_* below.
#define HIERCOLL_FORTRAN(name, NAME, c_function, ...) HIERCOLL_FORTRAN_(name, NAME, c_function, __VA_ARGS__)
#define HIERCOLL_FORTRAN_(name, NAME, c_function, params, args)                     \
  extern "C" void hiercoll_fortran_##name params { forward(c_function, ierr) args; } \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##name, mpi_##name)                       \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##name, mpi_##name##_)                    \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##name, mpi_##name##__)                   \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##name, MPI_##NAME)                       \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##name, mpi_##name##_f08_)

// clang-format off
// Argument lists several collectives share (count: an array for reduce_scatter).
#define SIGNATURE_REDUCTION \
  (FBuf sbuf, FBuf rbuf, FInt count, FInt type, FInt op, FInt comm, FOut ierr), (sbuf, rbuf, count, type, op, comm)
#define SIGNATURE_BLOCKS                                                                            \
  (FBuf sbuf, FInt scount, FInt stype, FBuf rbuf, FInt rcount, FInt rtype, FInt comm, FOut ierr), \
  (sbuf, scount, stype, rbuf, rcount, rtype, comm)
#define SIGNATURE_ROOTED_BLOCKS                                                                               \
  (FBuf sbuf, FInt scount, FInt stype, FBuf rbuf, FInt rcount, FInt rtype, FInt root, FInt comm, FOut ierr), \
  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm)

HIERCOLL_FORTRAN(bcast, BCAST, hiercoll_bcast,
                 (FBuf buf, FInt count, FInt type, FInt root, FInt comm, FOut ierr), (buf, count, type, root, comm))
HIERCOLL_FORTRAN(reduce, REDUCE, hiercoll_reduce,
                 (FBuf sbuf, FBuf rbuf, FInt count, FInt type, FInt op, FInt root, FInt comm, FOut ierr),
                 (sbuf, rbuf, count, type, op, root, comm))
HIERCOLL_FORTRAN(allreduce, ALLREDUCE, hiercoll_allreduce, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN(allgather, ALLGATHER, hiercoll_allgather, SIGNATURE_BLOCKS)
HIERCOLL_FORTRAN(reduce_scatter_block, REDUCE_SCATTER_BLOCK, hiercoll_reduce_scatter_block, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN(reduce_scatter, REDUCE_SCATTER, hiercoll_reduce_scatter, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN(alltoall, ALLTOALL, hiercoll_alltoall, SIGNATURE_BLOCKS)
HIERCOLL_FORTRAN(scan, SCAN, hiercoll_scan, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN(exscan, EXSCAN, hiercoll_exscan, SIGNATURE_REDUCTION)
HIERCOLL_FORTRAN(barrier, BARRIER, hiercoll_barrier, (FInt comm, FOut ierr), (comm))
HIERCOLL_FORTRAN(gather, GATHER, hiercoll_gather, SIGNATURE_ROOTED_BLOCKS)
HIERCOLL_FORTRAN(scatter, SCATTER, hiercoll_scatter, SIGNATURE_ROOTED_BLOCKS)
HIERCOLL_FORTRAN(gatherv, GATHERV, hiercoll_gatherv,
                 (FBuf sbuf, FInt scount, FInt stype, FBuf rbuf, FInt rcounts, FInt displs, FInt rtype, FInt root,
                  FInt comm, FOut ierr),
                 (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm))
HIERCOLL_FORTRAN(scatterv, SCATTERV, hiercoll_scatterv,
                 (FBuf sbuf, FInt scounts, FInt displs, FInt stype, FBuf rbuf, FInt rcount, FInt rtype, FInt root,
                  FInt comm, FOut ierr),
                 (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm))
HIERCOLL_FORTRAN(allgatherv, ALLGATHERV, hiercoll_allgatherv,
                 (FBuf sbuf, FInt scount, FInt stype, FBuf rbuf, FInt rcounts, FInt displs, FInt rtype, FInt comm,
                  FOut ierr),
                 (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))
HIERCOLL_FORTRAN(alltoallv, ALLTOALLV, hiercoll_alltoallv,
                 (FBuf sbuf, FInt scounts, FInt sdispls, FInt stype, FBuf rbuf, FInt rcounts, FInt rdispls,
                  FInt rtype, FInt comm, FOut ierr),
                 (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))

// The process's start and end (interpose_init.cc) and the hints (interpose.cc).
HIERCOLL_FORTRAN(init, INIT, init, (FOut ierr), ())
HIERCOLL_FORTRAN(init_thread, INIT_THREAD, init_thread, (FInt required, FOut provided, FOut ierr), (required, provided))
HIERCOLL_FORTRAN(finalize, FINALIZE, MPI_Finalize, (FOut ierr), ())
HIERCOLL_FORTRAN(comm_set_info, COMM_SET_INFO, MPI_Comm_set_info, (FInt comm, FInt info, FOut ierr), (comm, info))
HIERCOLL_FORTRAN(comm_dup_with_info, COMM_DUP_WITH_INFO, comm_dup_with_info,
                 (FInt comm, FInt info, FOut newcomm, FOut ierr), (comm, info, newcomm))
// clang-format on
