#include "runtime/plan.h"

namespace hiercoll {

namespace {

BufDesc with_base(BufDesc d, const void* base) {
  d.base = static_cast<char*>(const_cast<void*>(base));
  return d;
}

char* offset_bytes(const void* base, int64_t units, int64_t epu, MPI_Datatype t) {
  MPI_Aint lb, ext;
  PMPI_Type_get_extent(t, &lb, &ext);
  return static_cast<char*>(const_cast<void*>(base)) + units * epu * ext;
}

int type_size(MPI_Datatype t) {
  int s = 0;
  if (t != MPI_DATATYPE_NULL) PMPI_Type_size(t, &s);
  return s;
}

struct SpareArrays {
  bool lent = false;
  std::vector<int64_t> counts, displs, send_counts, send_displs;
};

// Not inlined: an inlined thread_local's address is recomputed after every
// call (executors/mpi_executor.cc's thread_run says more).
__attribute__((noinline)) SpareArrays& spare_arrays() {
  thread_local SpareArrays spare;
  return spare;
}

void swap_arrays(CollArgs* a, SpareArrays* s) {
  a->counts.swap(s->counts);
  a->displs.swap(s->displs);
  a->send_counts.swap(s->send_counts);
  a->send_displs.swap(s->send_displs);
}

// Whether make_plan fills count arrays for c on `rank` (off the root a
// gatherv or scatterv has none).
bool fills_count_arrays(const Call& c, int rank) {
  switch (c.op) {
    case Op::kAllgatherv: case Op::kAlltoallv: case Op::kReduceScatter: return true;
    case Op::kGatherv: case Op::kScatterv: return rank == c.root;
    default: return false;
  }
}

}  // namespace

LentArrays::LentArrays(CollArgs* args, const Call& c, int rank) {
  if (!args || !fills_count_arrays(c, rank)) return;
  SpareArrays& s = spare_arrays();
  if (s.lent) return;
  s.lent = true;
  swap_arrays(args, &s);
  args->counts.clear();
  args->displs.clear();
  args->send_counts.clear();
  args->send_displs.clear();
  args_ = args;
}

LentArrays::~LentArrays() {
  if (!args_) return;
  SpareArrays& s = spare_arrays();
  swap_arrays(args_, &s);
  s.lent = false;
}

bool op_commutative(MPI_Op op) {
  int c = 1;
  if (op != MPI_OP_NULL) PMPI_Op_commutative(op, &c);
  return c != 0;
}

namespace {

// Reduce, allreduce, scan, exscan, reduce_scatter: a unit is an element of
// the operation's datatype.
int plan_reduction(const Call& c, int rank, int size, Plan* p) {
  CollArgs& a = p->args;
  Buffers& b = p->bufs;
  a.count = c.recvcount;
  if (c.op == Op::kReduceScatter) {
    a.counts.resize(size);
    for (int r = 0; r < size; ++r) a.counts[r] = c.recvcounts ? c.recvcounts[r] : c.recvcount;
    a.count = a.counts[rank];
  }
  // The same buffer on both sides, where MPI accepts it (validate refuses
  // it at a reduce's root; a reduce's non-roots have no result), is the
  // in-place call.
  const bool aliased = c.sendbuf == MPI_IN_PLACE || (c.sendbuf == c.recvbuf && c.op != Op::kReduce);
  // One description of the type for all three (each costs MPI queries).
  const BufDesc d = describe_buffer(nullptr, c.recvtype, 1);
  b[Buf::kSend] = with_base(d, aliased ? c.recvbuf : c.sendbuf);
  b[Buf::kRecv] = with_base(d, c.recvbuf);
  b[Buf::kTmp] = d;
  if (aliased) a.send_alias = 0;
  p->unit_bytes = type_size(c.recvtype);
  return MPI_SUCCESS;
}

// An in-place block collective's own block, or an in-place alltoall's copy
// of its input.
int plan_blocks_in_place(const Call& c, int rank, int size, Plan* p) {
  CollArgs& a = p->args;
  Buffers& b = p->bufs;
  const bool in_place = c.sendbuf == MPI_IN_PLACE;
  const bool root = rank == c.root;
  if ((c.op == Op::kAllgather && in_place) || (c.op == Op::kGather && root && in_place)) {
    a.send_alias = rank;
    b[Buf::kSend] = describe_buffer(offset_bytes(c.recvbuf, rank, c.recvcount, c.recvtype), c.recvtype, c.recvcount);
  } else if (c.op == Op::kScatter && root && c.recvbuf == MPI_IN_PLACE) {
    // The root's block stays where it is: Recv points at it in Send.
    b[Buf::kRecv] = describe_buffer(offset_bytes(c.sendbuf, rank, c.sendcount, c.sendtype), c.sendtype, c.sendcount);
    b[Buf::kTmp] = describe_buffer(nullptr, c.sendtype, c.sendcount);
  } else if (c.op == Op::kAlltoall && in_place) {
    // Every block is both read and overwritten: work from a copy.
    Buffers copy;
    copy[Buf::kSend] = b[Buf::kRecv];
    copy[Buf::kRecv] = p->send_copy.allocate(b[Buf::kRecv], size);
    const int rc = copy_span(copy, Span{Buf::kSend, 0, size}, Span{Buf::kRecv, 0, size});
    if (rc != MPI_SUCCESS) return rc;
    b[Buf::kSend] = copy[Buf::kRecv];
  }
  return MPI_SUCCESS;
}

// Allgather, alltoall, gather, scatter: one unit is one rank's block.
int plan_blocks(const Call& c, int rank, int size, Plan* p) {
  Buffers& b = p->bufs;
  p->args.count = 1;
  // The side whose type is significant on this rank describes scratch (and
  // the block size the tuning file is looked up by): not a gather's
  // receive side off the root, nor the receive side of an in-place
  // scatter's root, which MPI says to ignore.
  const bool root = rank == c.root;
  const bool recv_significant =
      !(c.op == Op::kGather && !root) && !(c.op == Op::kScatter && root && c.recvbuf == MPI_IN_PLACE);
  const MPI_Datatype unit_type = recv_significant ? c.recvtype : c.sendtype;
  const int unit_count = recv_significant ? c.recvcount : c.sendcount;
  p->unit_bytes = int64_t(unit_count) * type_size(unit_type);
  b[Buf::kSend] = describe_buffer(c.sendbuf, c.sendtype, c.sendcount);
  b[Buf::kRecv] = describe_buffer(c.recvbuf, c.recvtype, c.recvcount);
  b[Buf::kTmp] = describe_buffer(nullptr, unit_type, unit_count);
  return plan_blocks_in_place(c, rank, size, p);
}

}  // namespace

int make_plan(const Call& c, int rank, int size, Plan* p) {
  CollArgs& a = p->args;
  a.op = c.op;
  a.rank = rank;
  a.size = size;
  a.root = c.root;
  a.commutative = op_commutative(c.mpi_op);
  switch (c.op) {
    case Op::kBarrier:
      for (BufDesc& d : p->bufs.buf) d = describe_buffer(nullptr, MPI_BYTE, 1);
      a.count = 0;
      return MPI_SUCCESS;
    case Op::kBcast: return plan_bcast(c, rank, p);
    case Op::kReduce:
    case Op::kAllreduce:
    case Op::kScan:
    case Op::kExscan:
    case Op::kReduceScatter: return plan_reduction(c, rank, size, p);
    case Op::kGatherv:
    case Op::kScatterv:
    case Op::kAllgatherv:
    case Op::kAlltoallv: return plan_vector(c, rank, size, p);
    case Op::kAllgather:
    case Op::kAlltoall:
    case Op::kGather:
    case Op::kScatter: return plan_blocks(c, rank, size, p);
  }
  return MPI_SUCCESS;
}

}  // namespace hiercoll
