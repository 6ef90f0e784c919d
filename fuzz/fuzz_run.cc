#include "fuzz/fuzz_run.h"

#include <unistd.h>

#include <cstring>
#include <vector>

#include "call_by_op/call_by_op.h"
#include "fuzz/fuzz_types.h"
#include "fuzz/fuzz_values.h"
#include "fuzz/fuzz_vblocks.h"

namespace hiercoll::fuzz {

namespace {

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

// How many bytes of this rank's receive buffer `recv` MPI defines after the call.
size_t defined_bytes(const FuzzCase& c, const TypedBuffer& recv, int rank, int root, const std::vector<int>& counts) {
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

// Runs a call through hiercoll, then through Open MPI, each on fresh copies
// of `input` and `recv0`: call(native, send, recv) makes the call and
// returns its code. results[native]: the receive buffer after it.
template <typename Call>
std::string run_both(const TypedBuffer& input, const TypedBuffer& recv0, const std::string& where, Call call,
                     std::vector<char> results[2]) {
  for (int native = 0; native < 2; ++native) {
    const char* who = native ? "MPI" : "hiercoll";
    TypedBuffer send = input;
    TypedBuffer recv = recv0;
    const int rc = call(native == 1, send, recv);
    if (rc != MPI_SUCCESS) return where + who + " returned " + std::to_string(rc);
    if (send.bytes() != input.bytes()) return where + who + " wrote the send buffer";
    results[native] = recv.bytes();
  }
  return "";
}

// A v-variant (random bytes, no reduction) through both, compared byte for
// byte over the whole receive buffer (gaps between blocks included).
std::string run_v_case(const FuzzCase& c, MPI_Comm comm, int rank, int root, const std::string& where) {
  int size;
  MPI_Comm_size(comm, &size);
  int world_rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  const FuzzType& t = fuzz_types()[c.type];
  const VBlocks b = v_blocks(c, rank, size, root);
  const bool in_place = c.in_place && (c.api == ApiOp::kAllgatherv || c.api == ApiOp::kAlltoallv || rank == root);
  // An in-place alltoallv sends from its receive buffer, laid out alike.
  const VSide& from = in_place && c.api == ApiOp::kAlltoallv ? b.recv : b.send;
  std::mt19937_64 rng(c.data_seed ^ (uint64_t(world_rank) * 0x9e3779b97f4a7c15ull));
  TypedBuffer input(t, from.elems);
  fill_input(t, nullptr, rng, &input);
  const TypedBuffer recv0(t, b.recv.elems);
  const MPI_Aint ext = input.extent();
  std::vector<char> results[2];
  auto call = [&](bool native, TypedBuffer& send, TypedBuffer& recv) {
    const void* sendbuf = send.elem0();
    void* recvbuf = recv.elem0();
    if (in_place && c.api == ApiOp::kScatterv) {
      recvbuf = MPI_IN_PLACE;
    } else if (in_place) {
      if (c.api == ApiOp::kAlltoallv) recv = input;
      else std::memcpy(recv.bytes().data() + b.recv.displs[rank] * ext, input.bytes().data(), size_t(from.elems) * ext);
      recvbuf = recv.elem0();
      sendbuf = MPI_IN_PLACE;
    }
    CallArgs args = same_type_args(sendbuf, recvbuf, 0, t.type, MPI_OP_NULL, root, comm);
    args.sendcount = b.send.counts[0], args.recvcount = b.recv.counts[0];
    args.sendcounts = b.send.counts.data(), args.sdispls = b.send.displs.data();
    args.recvcounts = b.recv.counts.data(), args.rdispls = b.recv.displs.data();
    return call_by_op(c.api, native ? Via::kPmpi : Via::kMpi, args);
  };
  const std::string failed = run_both(input, recv0, where, call, results);
  if (!failed.empty()) return failed;
  return results[0] == results[1] ? "" : where + first_difference(results[0], results[1], ext);
}

}  // namespace

std::string run_case(const FuzzCase& c, MPI_Comm comm) {
  int rank, size, world_rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  const int root = int(c.root_draw % uint32_t(size));
  const std::string where = " (size " + std::to_string(size) + ", root " + std::to_string(root) + ", rank " +
                            std::to_string(rank) + "): ";
  if (c.api == ApiOp::kBarrier) {
    CallArgs args;
    args.comm = comm;
    for (Via via : {Via::kMpi, Via::kPmpi})
      if (const int rc = call_by_op(c.api, via, args); rc != MPI_SUCCESS)
        return where + (via == Via::kMpi ? "hiercoll" : "MPI") + " returned " + std::to_string(rc);
    return "";
  }
  if (is_v_variant(c.api)) return run_v_case(c, comm, rank, root, where);
  const FuzzType& t = fuzz_types()[c.type];
  const std::vector<FuzzOp> ops = ops_for(t);
  const FuzzOp* op = c.op >= 0 ? &ops[c.op] : nullptr;
  const std::vector<int> counts(c.counts.begin(), c.counts.begin() + size);
  const Shape s = shape_of(c, rank, size, root, counts);

  std::mt19937_64 rng(c.data_seed ^ (uint64_t(world_rank) * 0x9e3779b97f4a7c15ull));
  TypedBuffer input(t, s.send_n);
  fill_input(t, op, rng, &input);
  const MPI_Aint ext = input.extent();

  // The receive side's datatype and count (bcast: the root's buffer is its input).
  const bool bcast_root = c.api == ApiOp::kBcast && rank == root;
  const bool as_ints = c.recv_as_ints && !bcast_root;
  const int ints = int(t.int_offsets.size());
  const TypedBuffer recv0 =
      bcast_root ? input : as_ints ? TypedBuffer(int_type(), s.recv_n * ints) : TypedBuffer(t, s.recv_n);

  std::vector<char> results[2];
  auto call = [&](bool native, TypedBuffer& send, TypedBuffer& recv) {
    const void* sendbuf = send.elem0();
    void* recvbuf = recv.elem0();
    if (c.in_place) {
      if (c.api == ApiOp::kScatter) {
        if (rank == root) recvbuf = MPI_IN_PLACE;
      } else if (s.in_place_at >= 0) {
        std::memcpy(recv.bytes().data() + s.in_place_at * ext, input.bytes().data(), size_t(s.send_n) * ext);
        sendbuf = MPI_IN_PLACE;
      }
    }
    CallArgs args = same_type_args(sendbuf, recvbuf, c.count, t.type, op ? op->op : MPI_OP_NULL, root, comm);
    args.recvcounts = counts.data();
    if (as_ints) args.recvtype = MPI_INT, args.recvcount = c.count * ints;
    if (!native && c.max_delay_us) usleep(static_cast<useconds_t>(entry_delay_us(c, world_rank)));
    return call_by_op(c.api, native ? Via::kPmpi : Via::kMpi, args);
  };
  const std::string failed = run_both(input, recv0, where, call, results);
  if (!failed.empty()) return failed;
  for (std::vector<char>& r : results) r.resize(defined_bytes(c, recv0, rank, root, counts));
  if (op && compared_to_rounding(t, op->op)) {
    const std::string why = compare_to_rounding(t, results[0], results[1], size);
    return why.empty() ? "" : where + why;
  }
  return results[0] == results[1] ? "" : where + first_difference(results[0], results[1], recv0.extent());
}

}  // namespace hiercoll::fuzz
