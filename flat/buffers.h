// Where a schedule's three buffers are in memory and how their units map to
// the user's datatype.  Copies and reductions over spans go through MPI's
// datatype engine (MPI_Pack/MPI_Unpack, MPI_Reduce_local), so derived and
// non-contiguous datatypes and every operation work without special cases.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "flat/schedule.h"

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
char* span_address(const Buffers& b, const Span& s);
// Number of elements of the buffer's datatype in a span; MPI_ERR_COUNT when
// it does not fit an int.
int span_elements(const Buffers& b, const Span& s, int* elements);

// Scratch memory for n units laid out like `like` (same type and unit size).
class ScratchBuffer {
 public:
  BufDesc allocate(const BufDesc& like, int64_t units);

 private:
  std::vector<char> storage_;
};

int copy_span(const Buffers& b, const Span& src, const Span& dst);
int reduce_span(const Buffers& b, const Span& src, const Span& dst, bool src_first, MPI_Op op);

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
