// Fortran arguments as C sees them (runtime/interpose_fortran*.cc).  Fortran
// passes every argument by reference; `forward(fn, ierr)(args...)` converts
// each one by the type of fn's C parameter in its place, calls fn, and
// stores the result in ierr (absent, that is null, for an omitted OPTIONAL
// ierror of `use mpi_f08`).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>

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

template <>
struct Arg<MPI_Request> {
  static MPI_Request to_c(FInt f) { return or_null(PMPI_Request_f2c(*f), MPI_REQUEST_NULL); }
};

// What the C function reads and writes in place: n handles or statuses,
// Fortran's converted now and written back when the object goes, after
// the call (Forward's temporaries outlive fn's call; an adapter's too:
// `return MPI_Waitall(n, Requests(n, f), ...)`).  A few on the stack, so
// that a Wait or Test allocates nothing.
inline MPI_Fint to_f(MPI_Request h) { return PMPI_Request_c2f(h); }
inline MPI_Fint to_f(MPI_Datatype h) { return PMPI_Type_c2f(h); }
inline MPI_Fint to_f(MPI_Op h) { return PMPI_Op_c2f(h); }
inline MPI_Fint to_f(MPI_Comm h) { return PMPI_Comm_c2f(h); }

template <typename H>
struct HandleForm {
  static constexpr int kFints = 1;
  static bool ignored(const MPI_Fint*) { return false; }
  static void in(const MPI_Fint* f, H* c) { *c = Arg<H>::to_c(f); }
  static void out(const H& c, MPI_Fint* f) { *f = to_f(c); }
};
// A Fortran status is MPI_STATUS_SIZE INTEGERs (mpi_f08's TYPE(MPI_Status)
// too); MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are the addresses of
// Open MPI's common blocks, which mpi.h names MPI_F_STATUS(ES)_IGNORE.
struct StatusForm {
  static constexpr int kFints = sizeof(MPI_Status) / sizeof(MPI_Fint);
  static bool ignored(const MPI_Fint* f) { return f == MPI_F_STATUS_IGNORE || f == MPI_F_STATUSES_IGNORE; }
  static void in(const MPI_Fint* f, MPI_Status* c) { PMPI_Status_f2c(f, c); }
  static void out(const MPI_Status& c, MPI_Fint* f) { PMPI_Status_c2f(&c, f); }
};

template <typename C, typename Form>
class InOut {
 public:
  InOut(int n, MPI_Fint* f) : n_(n > 0 ? n : 0), f_(f) {
    if (Form::ignored(f_)) {
      n_ = 0;
      c_ = nullptr;
      return;
    }
    if (n_ > kOnStack) heap_.reset(new C[static_cast<size_t>(n_)]);
    c_ = heap_ ? heap_.get() : stack_;
    for (int i = 0; i < n_; ++i) Form::in(f_ + i * Form::kFints, &c_[i]);
  }
  InOut(const InOut&) = delete;
  InOut& operator=(const InOut&) = delete;
  ~InOut() {
    for (int i = 0; i < n_; ++i) Form::out(c_[i], f_ + i * Form::kFints);
  }
  // The C array; null for an ignored status (MPI_STATUS(ES)_IGNORE).
  operator C*() const { return c_; }

 private:
  static constexpr int kOnStack = 8;
  int n_;
  MPI_Fint* f_;
  C* c_;
  C stack_[kOnStack];
  std::unique_ptr<C[]> heap_;
};
// Handles the C function only reads (an alltoallw's datatypes): nothing is
// written back, as the Fortran array may be a constant.
template <typename H>
struct ReadHandleForm : HandleForm<H> {
  static void out(const H&, MPI_Fint*) {}
};

template <typename H>
using Handles = InOut<H, HandleForm<H>>;
using ReadTypes = InOut<MPI_Datatype, ReadHandleForm<MPI_Datatype>>;
using Requests = Handles<MPI_Request>;
using Statuses = InOut<MPI_Status, StatusForm>;

template <typename H>
struct Arg<H*> {
  static Handles<H> to_c(FOut f) { return Handles<H>(1, f); }
};
template <>
struct Arg<MPI_Status*> {
  static Statuses to_c(FOut f) { return Statuses(1, f); }
};

// Indices the C function writes (from 0; MPI_UNDEFINED: none) as Fortran's
// (from 1), when the object goes: *count of them (MPI_Waitsome,
// MPI_Testsome), or the one (MPI_Waitany, MPI_Testany: count null).  That
// count, or the index, is MPI_UNDEFINED until the call sets it, so a call
// that fails before leaves nothing to shift.
class Indices {
 public:
  Indices(int* count, int* indices) : count_(count), indices_(indices) {
    *(count_ ? count_ : indices_) = MPI_UNDEFINED;
  }
  Indices(const Indices&) = delete;
  Indices& operator=(const Indices&) = delete;
  ~Indices() {
    const int n = count_ ? *count_ : *indices_ != MPI_UNDEFINED;
    for (int i = 0; i < n; ++i) ++indices_[i];  // none for MPI_UNDEFINED (negative)
  }
  operator int*() const { return indices_; }

 private:
  int* count_;
  int* indices_;
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
