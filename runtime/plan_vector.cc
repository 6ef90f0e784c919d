// The v-variants' part of make_plan: units are elements of each side's own
// datatype (schedule/coll_args.h), blocks are the user's counts and
// displacements where MPI makes them significant.
#include <algorithm>

#include "runtime/plan.h"

namespace hiercoll {

namespace {

// Into the vector's own storage: a blocking call's plan lends its thread's
// arrays (LentArrays), so a repeated call allocates nothing.
void widen(std::vector<int64_t>* to, const int* v, int n) {
  to->resize(n);
  int64_t* out = to->data();
  for (int i = 0; i < n; ++i) out[i] = v[i];
}

// Whether a block is a message is decided by its bytes, alike on both
// sides: counts of a datatype of size zero are empty blocks, as the other
// side's zero counts of another datatype of the same (empty) signature are.
// `side` is the buffer whose datatype the counts are in.
void widen_counts(std::vector<int64_t>* to, const int* v, int n, const BufDesc& side) {
  widen(to, v, n);
  if (side.type_size == 0) std::fill(to->begin(), to->end(), 0);
}
int64_t count_of(int count, const BufDesc& side) { return side.type_size == 0 ? 0 : count; }

MPI_Aint extent_of(MPI_Datatype t) {
  MPI_Aint lb, ext;
  PMPI_Type_get_extent(t, &lb, &ext);
  return ext;
}

// Element `off` of a buffer of `type` elements.
const char* element(const void* base, int64_t off, MPI_Datatype type) {
  return static_cast<const char*>(base) + off * extent_of(type);
}

}  // namespace

int copy_input_aside(Plan* p) {
  const CollArgs& a = p->args;
  if (a.counts.empty()) return MPI_SUCCESS;
  int64_t lo = a.displs[0], hi = lo;
  for (size_t j = 0; j < a.counts.size(); ++j) {
    lo = std::min(lo, a.displs[j]);
    hi = std::max(hi, a.displs[j] + a.counts[j]);
  }
  if (hi == lo) {
    // Every block is empty: nothing to copy, and the empty copy's null base
    // must not be offset (undefined behaviour, UBSan's finding).
    p->bufs[Buf::kSend] = p->bufs[Buf::kRecv];
    return MPI_SUCCESS;
  }
  Buffers copy;
  copy[Buf::kSend] = p->bufs[Buf::kRecv];
  copy[Buf::kRecv] = p->send_copy.allocate(p->bufs[Buf::kRecv], hi - lo);
  copy[Buf::kRecv].base -= lo * copy[Buf::kRecv].extent;  // element lo of the input is the copy's first
  p->bufs[Buf::kSend] = copy[Buf::kRecv];
  return copy_span(copy, Span{Buf::kSend, lo, hi - lo}, Span{Buf::kRecv, lo, hi - lo});
}

int plan_vector(const Call& c, int rank, int size, Plan* p) {
  if (c.recvtypes) return plan_alltoallw(c, rank, size, p);
  CollArgs& a = p->args;
  Buffers& b = p->bufs;
  const bool root = rank == c.root;
  const bool in_place = c.sendbuf == MPI_IN_PLACE;
  // Only the sides MPI makes significant: a gatherv's receive side and a
  // scatterv's send side are the root's (elsewhere their datatype need not
  // even be valid), and each description costs MPI queries per call.
  const bool send_side = (c.op == Op::kScatterv && root) || (c.op == Op::kGatherv && !root);
  if (!(c.op == Op::kScatterv && !root)) b[Buf::kSend] = describe_buffer(c.sendbuf, c.sendtype, 1);
  if (!(c.op == Op::kGatherv && !root)) b[Buf::kRecv] = describe_buffer(c.recvbuf, c.recvtype, 1);
  // Scratch in the type of the side whose blocks this rank holds.
  b[Buf::kTmp] = b[send_side ? Buf::kSend : Buf::kRecv];
  b[Buf::kTmp].base = nullptr;
  p->unit_bytes = b[Buf::kTmp].type_size;

  switch (c.op) {
    case Op::kGatherv:
    case Op::kAllgatherv:
      a.count = count_of(c.sendcount, b[Buf::kSend]);
      if (root || c.op == Op::kAllgatherv) {
        widen_counts(&a.counts, c.recvcounts, size, b[Buf::kRecv]);
        widen(&a.displs, c.rdispls, size);
      }
      if (in_place && (root || c.op == Op::kAllgatherv)) {
        a.send_alias = a.displs[rank];
        a.count = a.counts[rank];
        b[Buf::kSend] = describe_buffer(element(c.recvbuf, a.send_alias, c.recvtype), c.recvtype, 1);
      }
      return MPI_SUCCESS;
    case Op::kScatterv:
      a.count = count_of(c.recvcount, b[Buf::kRecv]);
      if (!root) return MPI_SUCCESS;
      widen_counts(&a.counts, c.sendcounts, size, b[Buf::kSend]);
      widen(&a.displs, c.sdispls, size);
      if (c.recvbuf == MPI_IN_PLACE) {
        // The root's block stays where it is: Recv points at it in Send.
        a.count = a.counts[rank];
        b[Buf::kRecv] = describe_buffer(element(c.sendbuf, a.displs[rank], c.sendtype), c.sendtype, 1);
      }
      return MPI_SUCCESS;
    default:  // alltoallv
      widen_counts(&a.counts, c.recvcounts, size, b[Buf::kRecv]);
      widen(&a.displs, c.rdispls, size);
      if (in_place) {
        a.send_counts = a.counts;
        a.send_displs = a.displs;
        return copy_input_aside(p);
      }
      widen_counts(&a.send_counts, c.sendcounts, size, b[Buf::kSend]);
      widen(&a.send_displs, c.sdispls, size);
      return MPI_SUCCESS;
  }
}

}  // namespace hiercoll
