// Where a schedule's three buffers are in memory and how their units map to
// the user's datatype.  Copies and reductions over spans go through MPI's
// datatype engine (MPI_Pack/MPI_Unpack, MPI_Reduce_local), so derived and
// non-contiguous datatypes and every operation work without special cases.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "schedule/schedule.h"

namespace hiercoll {

struct BufDesc {
  char* base = nullptr;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int64_t elems_per_unit = 1;
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0, true_extent = 0;
  int type_size = 0;
  bool contiguous = false;  // elements are packed back to back with no gaps
};

// Describes a buffer at `base` holding elements of `type`, `elems_per_unit`
// elements per schedule unit.
BufDesc describe_buffer(const void* base, MPI_Datatype type, int64_t elems_per_unit);

struct Buffers {
  BufDesc buf[3];  // indexed by Buf
  const BufDesc& operator[](Buf b) const { return buf[static_cast<int>(b)]; }
  BufDesc& operator[](Buf b) { return buf[static_cast<int>(b)]; }
};

// Address of the first element of a span.
inline char* span_address(const Buffers& b, const Span& s) {
  const BufDesc& d = b[s.buf];
  return d.base + s.off * d.elems_per_unit * d.extent;
}
// Number of elements of the buffer's datatype in a span; MPI_ERR_COUNT when
// it does not fit an int.
inline int span_elements(const Buffers& b, const Span& s, int* elements) {
  const int64_t n = s.n * b[s.buf].elems_per_unit;
  if (n > INT_MAX) return MPI_ERR_COUNT;
  *elements = static_cast<int>(n);
  return MPI_SUCCESS;
}

// Units of buffer `buf` in one piece of a span that is too large for one MPI
// call: as many whole units as INT_MAX bytes hold (at least one; a unit has
// at most INT_MAX elements, since MPI's counts are ints).  A message's two
// ends cut it alike, since a unit has the same bytes on both (MPI requires
// equal type signatures), and no piece exceeds INT_MAX elements nor bytes.
int64_t units_per_piece(const BufDesc& d);
// The first piece of at most `units` units of s, and the rest.
inline Span first_piece(const Span& s, int64_t units) { return Span{s.buf, s.off, s.n < units ? s.n : units}; }
inline Span after_piece(const Span& s, int64_t units) {
  return s.n < units ? Span{s.buf, s.off + s.n, 0} : Span{s.buf, s.off + units, s.n - units};
}

// Scratch memory for n units laid out like `like` (same type and unit size).
class ScratchBuffer {
 public:
  BufDesc allocate(const BufDesc& like, int64_t units);

 private:
  std::vector<char> storage_;
};

int copy_span(const Buffers& b, const Span& src, const Span& dst);
int reduce_span(const Buffers& b, const Span& src, const Span& dst, bool src_first, MPI_Op op);
// Whether op is commutative.  The executors ask once per run and then
// reduce with src_first for every step of a commutative operation: the
// result is the same in either order, and only src second costs a pass
// through src and a copy back (half of a Rabenseifner allreduce's steps).
bool commutes(MPI_Op op);

// Packs a span into bytes and unpacks bytes into a span (in-process messages).
int pack_span(const Buffers& b, const Span& s, std::vector<char>* out);
int unpack_span(const Buffers& b, const Span& s, const std::vector<char>& in);

// Whether elements of `type` are their data bytes back to back in type-map
// order, so that any number of them can be moved as plain bytes: named
// types whose size is their extent, and MPI_Type_dup / MPI_Type_contiguous
// chains of such types.  (Size == extent == true extent is not enough: a
// struct may list its fields in another order than memory holds them.)
bool bytes_in_order(MPI_Datatype type);

// Packs `count` elements of `type` at `buf` into count * size bytes at
// `out`, and unpacks them back, in chunks that keep MPI_Pack's int
// arguments in range.  MPI_ERR_INTERN where MPI's packed form is not the
// bare data (a heterogeneous MPI), which byte-level transfers rely on.
int pack_elements(const void* buf, int64_t count, MPI_Datatype type, char* out);
int unpack_elements(const char* in, int64_t count, MPI_Datatype type, void* buf);

}  // namespace hiercoll
