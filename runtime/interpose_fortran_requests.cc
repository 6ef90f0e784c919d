// The Fortran bindings of the request and handle functions hiercoll
// interposes in C: the Wait and Test families and MPI_Request_get_status
// advance its started schedules (interpose_wait.cc), MPI_Start,
// MPI_Startall and MPI_Request_free know its persistent requests
// (interpose_persistent.cc), and the frees of datatypes, operations and
// communicators wait for the calls that still use them (interpose_free.cc).
// Open MPI's Fortran forms call PMPI_* and would leave a Fortran program's
// nonblocking and persistent collectives unfinished, or their handles
// freed under them.
//
// One line per routine, as in interpose_fortran.cc.  Requests, statuses
// (MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE included) and handles are
// converted in and back out (runtime/fortran_args.h); the routines with
// arrays of them, or with indices (from 1 in Fortran), have an adapter
// below that sizes the conversions by the call's count.
#include <mpi.h>

#include "runtime/fortran_args.h"
#include "runtime/fortran_binding.h"

using hiercoll::fortran::FInt;
using hiercoll::fortran::FOut;
using hiercoll::fortran::Indices;
using hiercoll::fortran::Requests;
using hiercoll::fortran::Statuses;

namespace {

// The conversions live until the C call has returned, then write back.
int waitall(int n, MPI_Fint* reqs, MPI_Fint* sts) { return MPI_Waitall(n, Requests(n, reqs), Statuses(n, sts)); }
int testall(int n, MPI_Fint* reqs, int* flag, MPI_Fint* sts) {
  return MPI_Testall(n, Requests(n, reqs), flag, Statuses(n, sts));
}
int waitany(int n, MPI_Fint* reqs, int* index, MPI_Fint* st) {
  return MPI_Waitany(n, Requests(n, reqs), Indices(nullptr, index), Statuses(1, st));
}
int testany(int n, MPI_Fint* reqs, int* index, int* flag, MPI_Fint* st) {
  return MPI_Testany(n, Requests(n, reqs), Indices(nullptr, index), flag, Statuses(1, st));
}
int waitsome(int n, MPI_Fint* reqs, int* outcount, int* indices, MPI_Fint* sts) {
  return MPI_Waitsome(n, Requests(n, reqs), outcount, Indices(outcount, indices), Statuses(n, sts));
}
int testsome(int n, MPI_Fint* reqs, int* outcount, int* indices, MPI_Fint* sts) {
  return MPI_Testsome(n, Requests(n, reqs), outcount, Indices(outcount, indices), Statuses(n, sts));
}
int startall(int n, MPI_Fint* reqs) { return MPI_Startall(n, Requests(n, reqs)); }

}  // namespace

// clang-format off
HIERCOLL_FORTRAN(wait, WAIT, MPI_Wait, (FOut request, FOut status, FOut ierr), (request, status))
HIERCOLL_FORTRAN(test, TEST, MPI_Test, (FOut request, FOut flag, FOut status, FOut ierr), (request, flag, status))
HIERCOLL_FORTRAN(waitall, WAITALL, waitall, (FInt count, FOut requests, FOut statuses, FOut ierr),
                 (count, requests, statuses))
HIERCOLL_FORTRAN(testall, TESTALL, testall, (FInt count, FOut requests, FOut flag, FOut statuses, FOut ierr),
                 (count, requests, flag, statuses))
HIERCOLL_FORTRAN(waitany, WAITANY, waitany, (FInt count, FOut requests, FOut index, FOut status, FOut ierr),
                 (count, requests, index, status))
HIERCOLL_FORTRAN(testany, TESTANY, testany,
                 (FInt count, FOut requests, FOut index, FOut flag, FOut status, FOut ierr),
                 (count, requests, index, flag, status))
HIERCOLL_FORTRAN(waitsome, WAITSOME, waitsome,
                 (FInt incount, FOut requests, FOut outcount, FOut indices, FOut statuses, FOut ierr),
                 (incount, requests, outcount, indices, statuses))
HIERCOLL_FORTRAN(testsome, TESTSOME, testsome,
                 (FInt incount, FOut requests, FOut outcount, FOut indices, FOut statuses, FOut ierr),
                 (incount, requests, outcount, indices, statuses))
HIERCOLL_FORTRAN(request_get_status, REQUEST_GET_STATUS, MPI_Request_get_status,
                 (FInt request, FOut flag, FOut status, FOut ierr), (request, flag, status))
HIERCOLL_FORTRAN(start, START, MPI_Start, (FOut request, FOut ierr), (request))
HIERCOLL_FORTRAN(startall, STARTALL, startall, (FInt count, FOut requests, FOut ierr), (count, requests))
HIERCOLL_FORTRAN(request_free, REQUEST_FREE, MPI_Request_free, (FOut request, FOut ierr), (request))
HIERCOLL_FORTRAN(type_free, TYPE_FREE, MPI_Type_free, (FOut type, FOut ierr), (type))
HIERCOLL_FORTRAN(op_free, OP_FREE, MPI_Op_free, (FOut op, FOut ierr), (op))
HIERCOLL_FORTRAN(comm_free, COMM_FREE, MPI_Comm_free, (FOut comm, FOut ierr), (comm))
// clang-format on
