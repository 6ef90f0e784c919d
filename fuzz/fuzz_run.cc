#include "fuzz/fuzz_run.h"

#include <unistd.h>

#include <cstring>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "call_by_op/call_by_op.h"
#include "fuzz/fuzz_comm.h"
#include "fuzz/fuzz_nonblocking.h"
#include "fuzz/fuzz_types.h"
#include "fuzz/fuzz_values.h"
#include "fuzz/fuzz_vblocks.h"

namespace hiercoll::fuzz {

namespace {

// Where a case runs on this rank.
struct Place {
  MPI_Comm comm;
  int rank, size, root, world_rank;
};

// The element counts of one rank's buffers, and where in its receive
// buffer an in-place call expects its input (in elements; -1: no input).
struct Shape {
  int64_t send_n = 0, recv_n = 0, in_place_at = -1;
};

Shape shape_of(const FuzzCase& c, int rank, int size, int root, const std::vector<int>& counts) {
  const int64_t n = c.count;
  int64_t total = 0;
  for (int k : counts) total += k;
  Shape s{n, n, 0};
  switch (c.api) {
    case ApiOp::kAllgather: s.recv_n = n * size, s.in_place_at = n * rank; break;
    case ApiOp::kGather: s.recv_n = n * size, s.in_place_at = rank == root ? n * rank : -1; break;
    case ApiOp::kScatter: s.send_n = n * size, s.in_place_at = -1; break;
    case ApiOp::kAlltoall: s.send_n = s.recv_n = n * size; break;
    case ApiOp::kReduceScatterBlock: s.send_n = n * size, s.recv_n = c.in_place ? s.send_n : n; break;
    case ApiOp::kReduceScatter: s.send_n = total, s.recv_n = c.in_place ? total : counts[rank]; break;
    case ApiOp::kReduce: s.in_place_at = rank == root ? 0 : -1; break;
    default: break;
  }
  return s;
}

// How many bytes of this rank's receive buffer `recv` MPI defines after the
// call (empty data: all of them, as they were).
size_t defined_bytes(const FuzzCase& c, const TypedBuffer& recv, int rank, int root, const std::vector<int>& counts) {
  if (c.empty) return recv.bytes().size();
  if ((c.api == ApiOp::kReduce || c.api == ApiOp::kGather) && rank != root) return 0;
  if (c.api == ApiOp::kExscan && rank == 0) return 0;
  if (c.in_place && c.api == ApiOp::kReduceScatterBlock) return size_t(c.count) * recv.extent();
  if (c.in_place && c.api == ApiOp::kReduceScatter) return size_t(counts[rank]) * recv.extent();
  return recv.bytes().size();
}

const FuzzType& int_type() {
  for (const FuzzType& t : fuzz_types())
    if (t.type == MPI_INT) return t;
  return fuzz_types().front();
}

std::string first_difference(const std::vector<char>& a, const std::vector<char>& b, MPI_Aint ext) {
  size_t i = 0;
  while (i < a.size() && a[i] == b[i]) ++i;
  return "differs from MPI's result at byte " + std::to_string(i) + " (element " + std::to_string(i / ext) + ")";
}

// The data of call `instance` of a case on a world rank.
std::mt19937_64 data_rng(const FuzzCase& c, int world_rank, int instance) {
  return std::mt19937_64((c.data_seed + uint64_t(instance)) ^ (uint64_t(world_rank) * 0x9e3779b97f4a7c15ull));
}

// One call of a case as this rank makes it, on either side: its input, its
// receive buffer before the call, and what is compared after it.  Not
// moved once made: the arguments point into it.
struct PreparedCall {
  PreparedCall(const FuzzType& send_type, int64_t send_n, const FuzzType& recv_type, int64_t recv_n, int size)
      : input(send_type, send_n), recv0(recv_type, recv_n), zeros(size, 0) {}
  TypedBuffer input, recv0;
  std::vector<int> counts;  // reduce_scatter's
  VBlocks blocks;           // v-variants'
  // alltoallw's: the blocks' displacements in bytes, a datatype per peer
  std::vector<int> send_bytes, recv_bytes;
  std::vector<MPI_Datatype> types;
  std::vector<MPI_Datatype> empty_send_types, empty_recv_types;  // as drawn for empty data (zero-size ones)
  std::vector<int> zeros;   // the counts of a side of empty data described as no elements
  // Copies an in-place call's input into recv, and returns the call's
  // arguments on send and recv (fresh copies of input and recv0).
  std::function<CallArgs(TypedBuffer& send, TypedBuffer& recv)> lay_out;
  size_t compared = 0;                  // leading bytes of the receive buffer compared
  const FuzzType* rounding = nullptr;   // compared to rounding in this type, else bit for bit
};

std::unique_ptr<PreparedCall> prepare_barrier(const Place& at) {
  auto p = std::make_unique<PreparedCall>(int_type(), 0, int_type(), 0, at.size);
  p->lay_out = [comm = at.comm](TypedBuffer&, TypedBuffer&) {
    CallArgs args;
    args.comm = comm;
    return args;
  };
  return p;
}

// A v-variant (random bytes, no reduction), compared byte for byte over the
// whole receive buffer (gaps between blocks included).
std::unique_ptr<PreparedCall> prepare_v(const FuzzCase& c, const Place& at, int instance) {
  const FuzzType& t = fuzz_types()[c.type];
  const VBlocks b = v_blocks(c, at.rank, at.size, at.root);
  const bool all_to_all = c.api == ApiOp::kAlltoallv || c.api == ApiOp::kAlltoallw;
  const bool in_place = c.in_place && (c.api == ApiOp::kAllgatherv || all_to_all || at.rank == at.root);
  // An in-place alltoall(v/w) sends from its receive buffer, laid out alike.
  const int64_t from_elems = in_place && all_to_all ? b.recv.elems : b.send.elems;
  auto p = std::make_unique<PreparedCall>(t, from_elems, t, b.recv.elems, at.size);
  p->blocks = b;
  if (c.api == ApiOp::kAlltoallw) {  // alltoallv's blocks, in bytes, the case's datatype for every peer
    const MPI_Aint ext = p->input.extent();
    for (int d : b.send.displs) p->send_bytes.push_back(static_cast<int>(d * ext));
    for (int d : b.recv.displs) p->recv_bytes.push_back(static_cast<int>(d * ext));
    p->types.assign(at.size, t.type);
    const auto zero_size = [&](const std::vector<int>& forms) {
      const int form = c.empty ? forms[size_t(at.world_rank)] : -1;
      return form >= 0 ? zero_size_types()[size_t(form)].type : t.type;
    };
    p->empty_send_types.assign(at.size, zero_size(c.empty_send));
    p->empty_recv_types.assign(at.size, zero_size(c.empty_recv));
  }
  std::mt19937_64 rng = data_rng(c, at.world_rank, instance);
  fill_input(t, nullptr, rng, &p->input);
  p->compared = p->recv0.bytes().size();
  p->lay_out = [&c, &t, at, in_place, all_to_all, from_elems, p = p.get()](TypedBuffer& send, TypedBuffer& recv) {
    const MPI_Aint ext = send.extent();
    const VBlocks& b = p->blocks;
    const void* sendbuf = send.elem0();
    void* recvbuf = recv.elem0();
    if (in_place && c.api == ApiOp::kScatterv) {
      recvbuf = MPI_IN_PLACE;
    } else if (in_place) {
      const size_t bytes = size_t(from_elems) * ext;
      if (all_to_all) recv = send;
      else std::memcpy(recv.bytes().data() + b.recv.displs[at.rank] * ext, send.bytes().data(), bytes);
      recvbuf = recv.elem0();
      sendbuf = MPI_IN_PLACE;
    }
    CallArgs args = same_type_args(sendbuf, recvbuf, 0, t.type, MPI_OP_NULL, at.root, at.comm);
    args.sendcount = b.send.counts[0], args.recvcount = b.recv.counts[0];
    args.sendcounts = b.send.counts.data(), args.sdispls = b.send.displs.data();
    args.recvcounts = b.recv.counts.data(), args.rdispls = b.recv.displs.data();
    if (c.api == ApiOp::kAlltoallw) {
      args.sdispls = p->send_bytes.data(), args.rdispls = p->recv_bytes.data();
      args.sendtypes = args.recvtypes = p->types.data();
    }
    return args;
  };
  return p;
}

// Any other operation: a reduction's values keep it well defined; data
// movement of a type made of ints may receive as MPI_INTs.
std::unique_ptr<PreparedCall> prepare_block(const FuzzCase& c, const Place& at, const FuzzOp* op, int instance) {
  const FuzzType& t = fuzz_types()[c.type];
  const std::vector<int> counts(c.counts.begin(), c.counts.begin() + at.size);
  const Shape s = shape_of(c, at.rank, at.size, at.root, counts);
  // The receive side's datatype and count (bcast: the root's buffer is its input).
  const bool bcast_root = c.api == ApiOp::kBcast && at.rank == at.root;
  const bool as_ints = c.recv_as_ints && !bcast_root;
  const int ints = int(t.int_offsets.size());
  auto p = std::make_unique<PreparedCall>(t, s.send_n, as_ints ? int_type() : t, as_ints ? s.recv_n * ints : s.recv_n,
                                          at.size);
  std::mt19937_64 rng = data_rng(c, at.world_rank, instance);
  fill_input(t, op, rng, &p->input);
  if (bcast_root) p->recv0 = p->input;
  p->counts = counts;
  p->compared = defined_bytes(c, p->recv0, at.rank, at.root, counts);
  if (op && compared_to_rounding(t, op->op) && !c.empty) p->rounding = &t;
  p->lay_out = [&c, &t, at, op, s, as_ints, ints, p = p.get()](TypedBuffer& send, TypedBuffer& recv) {
    const void* sendbuf = send.elem0();
    void* recvbuf = recv.elem0();
    if (c.in_place) {
      if (c.api == ApiOp::kScatter) {
        if (at.rank == at.root) recvbuf = MPI_IN_PLACE;
      } else if (s.in_place_at >= 0) {
        const MPI_Aint ext = send.extent();
        std::memcpy(recv.bytes().data() + s.in_place_at * ext, send.bytes().data(), size_t(s.send_n) * ext);
        sendbuf = MPI_IN_PLACE;
      }
    }
    CallArgs args = same_type_args(sendbuf, recvbuf, c.count, t.type, op ? op->op : MPI_OP_NULL, at.root, at.comm);
    args.recvcounts = p->counts.data();
    if (as_ints) args.recvtype = MPI_INT, args.recvcount = c.count * ints;
    return args;
  };
  return p;
}

std::unique_ptr<PreparedCall> prepare(const FuzzCase& c, const Place& at, const FuzzOp* op, int instance) {
  if (c.api == ApiOp::kBarrier) return prepare_barrier(at);
  if (is_v_variant(c.api)) return prepare_v(c, at, instance);
  return prepare_block(c, at, op, instance);
}

// One side of empty data: `form` >= 0 passes the counts as elements of
// zero-size datatype `form` (alltoallw: `zero_types`, that one per peer);
// -1 passes zero elements of the side's datatype.
void describe_empty_side(int form, const int* zeros, const MPI_Datatype* zero_types, int* count, MPI_Datatype* type,
                         const int** counts, const MPI_Datatype** types) {
  if (form >= 0) {
    *type = zero_size_types()[form].type;
    if (*types) *types = zero_types;
    return;
  }
  *count = 0;
  if (*counts) *counts = zeros;
}

// A call's buffers on one side: fresh copies of its input and receive buffer.
struct Buffers {
  TypedBuffer send, recv;
};

// The arguments of call p on one side.  Empty data is described as drawn
// on hiercoll's side, and as no elements on every rank on Open MPI's,
// which hangs on some mixtures of the two forms (so with hiercoll off,
// when hiercoll's side is Open MPI's too, it is described so there).
CallArgs side_args(const FuzzCase& c, const Place& at, const PreparedCall& p, bool native, Buffers& b) {
  CallArgs a = p.lay_out(b.send, b.recv);
  if (!c.empty) return a;
  const bool as_drawn = !native && !hiercoll_off(c);
  const int send_form = as_drawn ? c.empty_send[at.world_rank] : -1;
  const int recv_form = as_drawn ? c.empty_recv[at.world_rank] : -1;
  describe_empty_side(send_form, p.zeros.data(), p.empty_send_types.data(), &a.sendcount, &a.sendtype, &a.sendcounts,
                      &a.sendtypes);
  describe_empty_side(recv_form, p.zeros.data(), p.empty_recv_types.data(), &a.recvcount, &a.recvtype, &a.recvcounts,
                      &a.recvtypes);
  return a;
}

// Open MPI's side of a call.  An alltoallw, whose blocks all have the case's
// datatype, is Open MPI's alltoallv of the same blocks: Open MPI 4.1's
// alltoallw on a communicator of one rank misplaces the data of a datatype
// whose lower bound is not 0 (type resized_lb), and the two calls are the
// same otherwise.
int reference_call(const FuzzCase& c, const PreparedCall& p, CallArgs a) {
  if (c.api != ApiOp::kAlltoallw) return call_by_op(c.api, Via::kPmpi, a);
  a.sdispls = p.blocks.send.displs.data();
  a.rdispls = p.blocks.recv.displs.data();
  return call_by_op(ApiOp::kAlltoallv, Via::kPmpi, a);
}

// hiercoll's side: every call of the case on buffers of its own, blocking
// or started together; each call's outcome.
std::vector<int> run_hiercoll(const FuzzCase& c, const Place& at, const FuzzOp* op,
                              const std::vector<std::unique_ptr<PreparedCall>>& calls, std::vector<Buffers>* bufs) {
  std::vector<CallArgs> args;
  for (size_t i = 0; i < calls.size(); ++i) args.push_back(side_args(c, at, *calls[i], false, (*bufs)[i]));
  if (c.max_delay_us) usleep(static_cast<useconds_t>(entry_delay_us(c, at.world_rank)));
  if (!c.nonblocking) return {call_by_op(c.api, Via::kMpi, args.front())};
  return run_nonblocking(c, op, std::move(args), c.data_seed ^ (uint64_t(at.world_rank) * 0x2545f4914f6cdd1dull));
}

// What differs in one side's outcome of call p: its code, its send buffer.
std::string side_failure(const PreparedCall& p, const Buffers& b, int rc, const char* who) {
  if (rc != MPI_SUCCESS) return std::string(who) + " returned " + std::to_string(rc);
  if (b.send.bytes() != p.input.bytes()) return std::string(who) + " wrote the send buffer";
  return "";
}

// Compares hiercoll's receive buffer with MPI's where MPI defines them.
std::string compare_results(const PreparedCall& p, std::vector<char> ours, std::vector<char> mpi, int ranks) {
  ours.resize(p.compared);
  mpi.resize(p.compared);
  if (p.rounding) return compare_to_rounding(*p.rounding, ours, mpi, ranks);
  return ours == mpi ? "" : first_difference(ours, mpi, p.recv0.extent());
}

}  // namespace

std::string run_case(const FuzzCase& c, MPI_Comm comm) {
  Place at{comm, 0, 0, 0, 0};
  MPI_Comm_rank(comm, &at.rank);
  MPI_Comm_size(comm, &at.size);
  MPI_Comm_rank(MPI_COMM_WORLD, &at.world_rank);
  at.root = int(c.root_draw % uint32_t(at.size));
  const std::vector<FuzzOp> ops = c.op >= 0 ? ops_for(fuzz_types()[c.type]) : std::vector<FuzzOp>{};
  const FuzzOp* op = c.op >= 0 ? &ops[c.op] : nullptr;

  std::vector<std::unique_ptr<PreparedCall>> calls;
  std::vector<Buffers> ours, mpi;
  for (int i = 0; i < c.in_flight; ++i) {
    calls.push_back(prepare(c, at, op, i));
    ours.push_back({calls[i]->input, calls[i]->recv0});
    mpi.push_back({calls[i]->input, calls[i]->recv0});
  }
  const std::vector<int> rcs = run_hiercoll(c, at, op, calls, &ours);
  // Open MPI's side: the same calls one after another, blocking, all of
  // them on every rank before any is judged.
  std::vector<int> mpi_rcs;
  for (size_t i = 0; i < calls.size(); ++i)
    mpi_rcs.push_back(reference_call(c, *calls[i], side_args(c, at, *calls[i], true, mpi[i])));

  for (size_t i = 0; i < calls.size(); ++i) {
    std::string failed = side_failure(*calls[i], ours[i], rcs[i], "hiercoll");
    if (failed.empty()) failed = side_failure(*calls[i], mpi[i], mpi_rcs[i], "MPI");
    if (failed.empty())
      failed = compare_results(*calls[i], std::move(ours[i].recv.bytes()), std::move(mpi[i].recv.bytes()), at.size);
    if (failed.empty()) continue;
    return " (size " + std::to_string(at.size) + ", root " + std::to_string(at.root) + ", rank " +
           std::to_string(at.rank) + (calls.size() > 1 ? ", call " + std::to_string(i) : "") + "): " + failed;
  }
  return "";
}

}  // namespace hiercoll::fuzz
