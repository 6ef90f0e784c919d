// The v-variants against MPI's own: blocks from VectorLayout (irregular
// counts with zeros, displacements back to back or reversed with gaps), in
// place where MPI allows it, sides with different datatypes of one
// signature.  Alltoallw takes alltoallv's blocks with a datatype per peer:
// every odd peer's is a duplicate of the side's datatype, and displacements
// are in bytes.
#include <sstream>
#include <vector>

#include "call_by_op/call_by_op.h"
#include "tests/support/mpi_check.h"
#include "tests/support/vector_layout.h"

namespace hiercoll::testing {

namespace {

Op op_of(ApiOp api) {
  switch (api) {
    case ApiOp::kGatherv: return Op::kGatherv;
    case ApiOp::kScatterv: return Op::kScatterv;
    case ApiOp::kAllgatherv: return Op::kAllgatherv;
    default: return Op::kAlltoallv;
  }
}

// One side of the call on this rank: its blocks in elements of its type.
struct Side {
  std::vector<int> counts, displs;
  int64_t extent = 0;  // elements the buffer spans
};

std::vector<int> narrow(const std::vector<int64_t>& v) { return std::vector<int>(v.begin(), v.end()); }

// An alltoallw side made from an alltoallv side: displacements in bytes and
// a datatype per peer (odd peers: `dup`, a duplicate of `type`).
struct TypedBlocks {
  std::vector<int> displs;
  std::vector<MPI_Datatype> types;
  TypedBlocks(const Side& s, MPI_Datatype type, MPI_Datatype dup) {
    for (size_t j = 0; j < s.displs.size(); ++j) {
      displs.push_back(static_cast<int>(s.displs[j] * extent_of(type)));
      types.push_back(j % 2 ? dup : type);
    }
  }
};

struct Duplicate {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  explicit Duplicate(MPI_Datatype t) {
    MPI_Type_dup(t, &type);
    MPI_Type_commit(&type);
  }
  ~Duplicate() { MPI_Type_free(&type); }
};

// The blocks of every rank (count_of(j) groups for rank j) in elements of
// a type `scale` elements per group.
template <typename F>
Side side_of(const VectorLayout& v, int scale, F count_of) {
  std::vector<int64_t> c, d;
  v.layout([&](int j) { return count_of(j) * scale; }, &c, &d);
  return Side{narrow(c), narrow(d), VectorLayout::extent(c, d)};
}

}  // namespace

std::string compare_vector_with_native(ApiOp api, const DataCase& st, const DataCase& rt, int count, int group,
                                       int root_rank, bool in_place, bool gaps, MPI_Comm comm, Via via) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::ostringstream what;
  what << (via == Via::kMpiNonblocking ? "nonblocking " : "") << api_op_name(api) << " " << st.name << " to " << rt.name << " count=" << count << " root=" << root_rank
       << (in_place ? " in-place" : "") << (gaps ? " gaps" : "");
  const Op op = op_of(api);
  const bool root = rank == root_rank;
  const VectorLayout v{size, count, {}, gaps};
  const int ss = group ? group / st.basics_per_elem : 1, rs = group ? group / rt.basics_per_elem : 1;
  // Send side: one block (gatherv, allgatherv) or one per rank; receive
  // side likewise.
  // (rank j's block; for alltoallv the pattern is symmetric, so the block
  // this rank sends j.)
  const Side all_send = side_of(v, ss, [&](int j) { return v.block(op, j, rank); });
  const Side all_recv = side_of(v, rs, [&](int j) { return v.block(op, j, rank); });
  const int own_send = int(v.block(op, rank, rank) * ss), own_recv = int(v.block(op, rank, rank) * rs);
  int64_t send_n = own_send, recv_n = own_recv;
  if (op == Op::kScatterv) send_n = root ? all_send.extent : 0;
  if (op == Op::kGatherv) recv_n = root ? all_recv.extent : 0;
  if (op == Op::kAllgatherv) recv_n = all_recv.extent;
  if (op == Op::kAlltoallv) send_n = all_send.extent, recv_n = all_recv.extent;
  const Duplicate send_dup(st.type), recv_dup(rt.type);
  const TypedBlocks typed_send(all_send, st.type, send_dup.type), typed_recv(all_recv, rt.type, recv_dup.type);
  const int salt = count % 7;
  const std::vector<char> input = input_buffer(st, rank, salt, send_n);
  const MPI_Aint ext = extent_of(rt.type);

  std::vector<char> results[2];
  for (int native = 0; native < 2; ++native) {
    const char* who = native ? ": PMPI" : ": hiercoll";
    std::vector<char> send = input;
    std::vector<char> recv = sentinel_buffer(rt, recv_n);
    char* r = static_cast<char*>(elem0(rt, recv));
    CallArgs a;
    a.sendbuf = elem0(st, send);
    a.sendtype = st.type;
    a.sendcount = own_send;
    a.sendcounts = all_send.counts.data();
    a.sdispls = all_send.displs.data();
    a.recvbuf = r;
    a.recvtype = rt.type;
    a.recvcount = own_recv;
    a.recvcounts = all_recv.counts.data();
    a.rdispls = all_recv.displs.data();
    a.root = root_rank;
    a.comm = comm;
    if (api == ApiOp::kAlltoallw) {
      a.sdispls = typed_send.displs.data();
      a.sendtypes = typed_send.types.data();
      a.rdispls = typed_recv.displs.data();
      a.recvtypes = typed_recv.types.data();
    }
    if (in_place) {  // same-type cases only: the input sits where MPI says
      if (op == Op::kAlltoallv) {
        fill_input(rt, rank, salt, r, recv_n), a.sendbuf = MPI_IN_PLACE;
      } else if (op == Op::kAllgatherv || (op == Op::kGatherv && root)) {
        fill_input(rt, rank, salt, r + int64_t(all_recv.displs[rank]) * ext, own_recv), a.sendbuf = MPI_IN_PLACE;
      } else if (op == Op::kScatterv && root) {
        a.recvbuf = MPI_IN_PLACE;
      }
    }
    const int rc = call_by_op(api, native ? Via::kPmpi : via, a);
    if (rc != MPI_SUCCESS) return what.str() + who + " returned " + std::to_string(rc);
    if (send != input) return what.str() + who + " wrote the send buffer";
    results[native] = recv;
  }
  return first_difference(results[0], results[1], what.str(), rank);
}

}  // namespace hiercoll::testing
