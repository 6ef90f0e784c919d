#include "executors/buffers.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

namespace hiercoll {

BufDesc describe_buffer(const void* base, MPI_Datatype type, int64_t elems_per_unit) {
  BufDesc d;
  d.base = static_cast<char*>(const_cast<void*>(base));
  d.type = type;
  d.elems_per_unit = elems_per_unit;
  if (type == MPI_DATATYPE_NULL) return d;
  MPI_Aint lb;
  MPI_Type_get_extent(type, &lb, &d.extent);
  MPI_Type_get_true_extent(type, &d.true_lb, &d.true_extent);
  MPI_Type_size(type, &d.type_size);
  d.contiguous = d.type_size == d.extent && d.type_size == d.true_extent;
  return d;
}

int64_t units_per_piece(const BufDesc& d) {
  const int64_t unit_bytes = d.elems_per_unit * d.type_size;
  return std::max<int64_t>(1, INT_MAX / std::max<int64_t>({unit_bytes, d.elems_per_unit, 1}));
}

// p moved by `bytes` as addresses, not as pointer arithmetic: a datatype of
// absolute addresses (MPI_BOTTOM) has a true lower bound near the top of
// the address space, and the base that puts its data into scratch wraps
// around it; MPI adds the bound back.
static char* address_plus(char* p, MPI_Aint bytes) {
  return reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(bytes));
}

BufDesc ScratchBuffer::allocate(const BufDesc& like, int64_t units) {
  BufDesc d = like;
  const int64_t elems = units * like.elems_per_unit;
  if (elems <= 0) {
    d.base = nullptr;
    return d;
  }
  const int64_t bytes = (elems - 1) * like.extent + like.true_extent;
  storage_.resize(static_cast<size_t>(bytes));
  // The datatype's first byte sits true_lb past the element's address.
  d.base = address_plus(storage_.data(), -like.true_lb);
  return d;
}

// One scratch area per thread for packing non-contiguous data.
static std::vector<char>& pack_scratch() {
  thread_local std::vector<char> v;
  return v;
}

int pack_span(const Buffers& b, const Span& s, std::vector<char>* out) {
  int n, rc = span_elements(b, s, &n);
  if (rc != MPI_SUCCESS) return rc;
  const BufDesc& d = b[s.buf];
  int bytes = 0;
  rc = MPI_Pack_size(n, d.type, MPI_COMM_SELF, &bytes);
  if (rc != MPI_SUCCESS) return rc;
  out->resize(static_cast<size_t>(bytes));
  int pos = 0;
  if (n == 0) return MPI_SUCCESS;
  return MPI_Pack(span_address(b, s), n, d.type, out->data(), bytes, &pos, MPI_COMM_SELF);
}

int unpack_span(const Buffers& b, const Span& s, const std::vector<char>& in) {
  int n, rc = span_elements(b, s, &n);
  if (rc != MPI_SUCCESS) return rc;
  if (n == 0) return MPI_SUCCESS;
  int pos = 0;
  return MPI_Unpack(in.data(), static_cast<int>(in.size()), &pos, span_address(b, s), n, b[s.buf].type,
                    MPI_COMM_SELF);
}

int copy_span(const Buffers& b, const Span& src, const Span& dst) {
  char* from = span_address(b, src);
  char* to = span_address(b, dst);
  if (from == to || src.n == 0) return MPI_SUCCESS;  // in-place calls alias Send and Recv
  const BufDesc& ds = b[src.buf];
  const BufDesc& dd = b[dst.buf];
  // Bytes copy as they are when both sides lay them out the same way (block
  // collectives may pair different send and receive types).
  if (ds.contiguous && dd.contiguous && (ds.type == dd.type || (bytes_in_order(ds.type) && bytes_in_order(dd.type)))) {
    const int64_t bytes = src.n * ds.elems_per_unit * ds.type_size;
    // Zero bytes (empty blocks) may come with null buffers, which memmove
    // must not be given.
    if (bytes > 0) std::memmove(address_plus(to, dd.true_lb), address_plus(from, ds.true_lb), static_cast<size_t>(bytes));
    return MPI_SUCCESS;
  }
  // Through MPI's pack and unpack, a piece at a time (their counts are ints).
  const int64_t piece = std::min(units_per_piece(ds), units_per_piece(dd));
  std::vector<char>& tmp = pack_scratch();
  for (Span s = src, d = dst; s.n > 0; s = after_piece(s, piece), d = after_piece(d, piece)) {
    int rc = pack_span(b, first_piece(s, piece), &tmp);
    if (rc == MPI_SUCCESS) rc = unpack_span(b, first_piece(d, piece), tmp);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int reduce_span(const Buffers& b, const Span& src, const Span& dst, bool src_first, MPI_Op op) {
  // A piece at a time: MPI_Reduce_local's count is an int.
  const int64_t piece = units_per_piece(b[dst.buf]);
  for (Span ps = src, pd = dst; ps.n > 0; ps = after_piece(ps, piece), pd = after_piece(pd, piece)) {
    const Span s_piece = first_piece(ps, piece), d_piece = first_piece(pd, piece);
    int n, rc = span_elements(b, s_piece, &n);
    if (rc != MPI_SUCCESS) return rc;
    if (n == 0) continue;
    char* s = span_address(b, s_piece);
    char* d = span_address(b, d_piece);
    MPI_Datatype type = b[dst.buf].type;
    // MPI_Reduce_local(in, inout) computes inout = in (op) inout.
    if (src_first) {
      rc = MPI_Reduce_local(s, d, n, type, op);
    } else {
      rc = MPI_Reduce_local(d, s, n, type, op);  // src = dst (op) src
      if (rc == MPI_SUCCESS) rc = copy_span(b, s_piece, d_piece);
    }
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

bool commutes(MPI_Op op) {
  int commutative = 0;
  return op != MPI_OP_NULL && PMPI_Op_commutative(op, &commutative) == MPI_SUCCESS && commutative;
}

bool bytes_in_order(MPI_Datatype type) {
  int ni, na, nt, combiner;
  if (MPI_Type_get_envelope(type, &ni, &na, &nt, &combiner) != MPI_SUCCESS) return false;
  if (combiner == MPI_COMBINER_NAMED) {
    int size;
    MPI_Aint lb, extent;
    MPI_Type_size(type, &size);
    MPI_Type_get_extent(type, &lb, &extent);
    return lb == 0 && size == extent;
  }
  if (combiner != MPI_COMBINER_DUP && combiner != MPI_COMBINER_CONTIGUOUS) return false;
  // Both combiners have at most one integer (the count), no address and one
  // type: the element type, which a contiguous repeat keeps in order when
  // it is in order itself (its size then equals its extent).
  int ints[1];
  MPI_Aint addrs[1];
  MPI_Datatype inner;
  if (MPI_Type_get_contents(type, ni, na, nt, ints, addrs, &inner) != MPI_SUCCESS) return false;
  const bool in_order = bytes_in_order(inner);
  int inner_combiner;
  MPI_Type_get_envelope(inner, &ni, &na, &nt, &inner_combiner);
  if (inner_combiner != MPI_COMBINER_NAMED) MPI_Type_free(&inner);  // get_contents returned a new handle
  return in_order;
}

namespace {

// Packs (or unpacks) count elements at `elems` to (from) `packed`, in chunks
// of whole elements of at most INT_MAX bytes (MPI_Pack takes ints).
int pack_in_chunks(bool pack, char* elems, int64_t count, MPI_Datatype type, char* packed) {
  int size;
  MPI_Aint lb, extent;
  MPI_Type_size(type, &size);
  MPI_Type_get_extent(type, &lb, &extent);
  const int64_t chunk = size > 0 ? INT_MAX / size : count;
  for (int64_t i = 0; i < count; i += chunk) {
    const int n = static_cast<int>(std::min(chunk, count - i));
    const int bytes = n * size;
    int pos = 0;
    const int rc = pack ? MPI_Pack(elems + i * extent, n, type, packed, bytes, &pos, MPI_COMM_SELF)
                        : MPI_Unpack(packed, bytes, &pos, elems + i * extent, n, type, MPI_COMM_SELF);
    if (rc != MPI_SUCCESS) return rc;
    if (pos != bytes) return MPI_ERR_INTERN;
    packed += bytes;
  }
  return MPI_SUCCESS;
}

}  // namespace

int pack_elements(const void* buf, int64_t count, MPI_Datatype type, char* out) {
  return pack_in_chunks(true, static_cast<char*>(const_cast<void*>(buf)), count, type, out);
}

int unpack_elements(const char* in, int64_t count, MPI_Datatype type, void* buf) {
  return pack_in_chunks(false, static_cast<char*>(buf), count, type, const_cast<char*>(in));
}

}  // namespace hiercoll
