// A Fortran routine of hiercoll's under every name Open MPI 4.1 exports it
// under (nm -D): x, x_, x__ and X from libmpi_mpifh (mpif.h and `use mpi`)
// and x_f08_ from libmpi_usempif08 (`use mpi_f08`, whose handles are one
// INTEGER and whose ierror is OPTIONAL, so the same function serves it),
// where x is mpi_<routine> or, for the extensions, mpix_<routine>.
// runtime/interpose_fortran*.cc use it; tests/fortran/symbols_test.sh
// checks the names against Open MPI's.
#pragma once

#include "runtime/fortran_args.h"

#define HIERCOLL_FORTRAN_NAME(impl, name) extern "C" decltype(impl) name __attribute__((alias(#impl)));

// HIERCOLL_FORTRAN_AS(lower, UPPER, c_function, (parameters), (arguments)):
// hiercoll_fortran_<lower>, and its aliases under Open MPI's names.  The
// parameters are the Fortran ones, in order, ending with ierror; the
// arguments are the others, as c_function takes them
// (runtime/fortran_args.h converts each by c_function's parameter type).
#define HIERCOLL_FORTRAN_AS(lower, UPPER, c_function, params, args)                                        \
  extern "C" void hiercoll_fortran_##lower params { hiercoll::fortran::forward(c_function, ierr) args; } \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##lower, lower)                                                 \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##lower, lower##_)                                              \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##lower, lower##__)                                             \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##lower, UPPER)                                                 \
  HIERCOLL_FORTRAN_NAME(hiercoll_fortran_##lower, lower##_f08_)

// HIERCOLL_FORTRAN(name, NAME, c_function, (parameters), (arguments)): MPI
// routine MPI_<NAME>.  The two lists may come as one macro.
#define HIERCOLL_FORTRAN(name, NAME, c_function, ...) \
  HIERCOLL_FORTRAN_AS(mpi_##name, MPI_##NAME, c_function, __VA_ARGS__)

// (a, b) -> a, b: a parenthesized list spliced into another.
#define HIERCOLL_FORTRAN_SPLICE(...) __VA_ARGS__
