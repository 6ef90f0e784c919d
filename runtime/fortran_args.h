// Fortran arguments as C sees them (runtime/interpose_fortran.cc).  Fortran
// passes every argument by reference; `forward(fn, ierr)(args...)` converts
// each one by the type of fn's C parameter in its place, calls fn, and
// stores the result in ierr (absent, that is null, for an omitted OPTIONAL
// ierror of `use mpi_f08`).
#pragma once

#include <mpi.h>

#include "runtime/comm_registry.h"

// Open MPI's Fortran sentinels: MPI_IN_PLACE and MPI_BOTTOM are common
// blocks (mpif.h, `use mpi`) or BIND(C) variables (`use mpi_f08`) of these
// names, gfortran's only spelling.  Only their addresses matter; the dynamic
// linker gives every library the program's copy.
extern "C" int mpi_fortran_in_place_;
extern "C" int mpi_fortran_bottom_;

namespace hiercoll::fortran {

// The C library takes an INTEGER array as int[] unconverted.
static_assert(sizeof(MPI_Fint) == sizeof(int), "Open MPI built with a default INTEGER other than C's int");

using FInt = const MPI_Fint*;  // an INTEGER or a handle (mpi_f08: TYPE(MPI_Comm) holds one INTEGER)
using FOut = MPI_Fint*;        // INTEGER, INTENT(OUT)
using FBuf = void*;            // a choice buffer (the sentinels above included)

// A buffer: the sentinels become MPI_IN_PLACE and MPI_BOTTOM, wherever they
// are passed, so misplaced ones get C's error classes.
inline void* buffer(void* f) {
  if (f == &mpi_fortran_in_place_) return MPI_IN_PLACE;
  if (f == &mpi_fortran_bottom_) return MPI_BOTTOM;
  return f;
}

// Open MPI's *_f2c give a null pointer for an index that names no object
// (never made, or freed); MPI's null handle makes hiercoll report it as C
// does (MPI_ERR_COMM on MPI_COMM_WORLD's handler, MPI_ERR_TYPE, MPI_ERR_OP).
template <typename H>
H or_null(H h, H null) {
  return h ? h : null;
}

template <typename C>
struct Arg;
template <>
struct Arg<int> {
  static int to_c(FInt f) { return *f; }
};
template <>
struct Arg<const int*> {
  static const int* to_c(FInt f) { return f; }
};
template <>
struct Arg<int*> {
  static int* to_c(FOut f) { return f; }
};
template <>
struct Arg<void*> {
  static void* to_c(FBuf f) { return buffer(f); }
};
template <>
struct Arg<const void*> {
  static const void* to_c(FBuf f) { return buffer(f); }
};
// MPI_Comm_f2c knows only live communicators, so the one it gives is not
// stale, whatever a freed handle at that address was (comm_registry.h; a
// Fortran constructor does not pass through interpose_comm.cc).
template <>
struct Arg<MPI_Comm> {
  static MPI_Comm to_c(FInt f) {
    const MPI_Comm c = or_null(PMPI_Comm_f2c(*f), MPI_COMM_NULL);
    note_comm_created(c);
    return c;
  }
};
template <>
struct Arg<MPI_Datatype> {
  static MPI_Datatype to_c(FInt f) { return or_null(PMPI_Type_f2c(*f), MPI_DATATYPE_NULL); }
};
template <>
struct Arg<MPI_Op> {
  static MPI_Op to_c(FInt f) { return or_null(PMPI_Op_f2c(*f), MPI_OP_NULL); }
};
template <>
struct Arg<MPI_Info> {
  static MPI_Info to_c(FInt f) { return or_null(PMPI_Info_f2c(*f), MPI_INFO_NULL); }
};

inline void set_ierror(MPI_Fint* ierr, int rc) {
  if (ierr) *ierr = rc;
}

template <typename... C>
struct Forward {
  int (*fn)(C...);
  MPI_Fint* ierr;
  template <typename... F>
  void operator()(F... f) const {
    static_assert(sizeof...(F) == sizeof...(C), "one Fortran argument per C parameter");
    set_ierror(ierr, fn(Arg<C>::to_c(f)...));
  }
};

template <typename... C>
Forward<C...> forward(int (*fn)(C...), MPI_Fint* ierr) {
  return {fn, ierr};
}

}  // namespace hiercoll::fortran
