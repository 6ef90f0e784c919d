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

}  // namespace hiercoll
