#include "measure/calls.h"

#include <algorithm>
#include <cstring>

#include "call_by_op/call_by_op.h"

namespace hcbench {

namespace {

// Byte of block (src, dst) at index i; float of rank src at index i (small
// integers, so sums are exact).
unsigned char pattern_byte(int64_t src, int64_t dst, int64_t i) {
  return static_cast<unsigned char>(src * 37 + dst * 101 + i * 11 + 5);
}
float pattern_float(int src, int64_t i) { return static_cast<float>(src % 5 + i % 3 + 1); }

// Sum over ranks lo..hi-1 of pattern_float(r, i) for every i.
struct PatternSum {
  double base = 0;  // sum of r % 5
  int ranks = 0;
  PatternSum(int lo, int hi) : ranks(hi - lo) {
    for (int r = lo; r < hi; ++r) base += r % 5;
  }
  float operator()(int64_t i) const { return static_cast<float>(base + static_cast<double>(ranks) * (i % 3 + 1)); }
};

float* floats(std::vector<char>& v) { return reinterpret_cast<float*>(v.data()); }
const float* floats(const std::vector<char>& v) { return reinterpret_cast<const float*>(v.data()); }

hiercoll::ApiOp api_op(BenchOp op) {
  using hiercoll::ApiOp;
  switch (op) {
    case BenchOp::kBcast: return ApiOp::kBcast;
    case BenchOp::kReduce: return ApiOp::kReduce;
    case BenchOp::kAllreduce: return ApiOp::kAllreduce;
    case BenchOp::kAllgather: return ApiOp::kAllgather;
    case BenchOp::kAlltoall: return ApiOp::kAlltoall;
    case BenchOp::kReduceScatterBlock: return ApiOp::kReduceScatterBlock;
    case BenchOp::kScan: return ApiOp::kScan;
    case BenchOp::kExscan: return ApiOp::kExscan;
    case BenchOp::kBarrier: return ApiOp::kBarrier;
    case BenchOp::kGather: return ApiOp::kGather;
    case BenchOp::kScatter: return ApiOp::kScatter;
    case BenchOp::kGatherv: return ApiOp::kGatherv;
    case BenchOp::kScatterv: return ApiOp::kScatterv;
    case BenchOp::kAllgatherv: return ApiOp::kAllgatherv;
    case BenchOp::kAlltoallv: return ApiOp::kAlltoallv;
    case BenchOp::kAlltoallw: return ApiOp::kAlltoallw;
  }
  return ApiOp::kBarrier;  // unreachable: every BenchOp is listed
}

}  // namespace

int64_t effective_bytes(const OpInfo& op, int64_t bytes) {
  if (!op.sized) return 0;
  if (op.reduction) return std::max<int64_t>(1, bytes / 4) * 4;
  return std::max<int64_t>(1, bytes);
}

int64_t largest_buffer(const OpInfo& op, int64_t bytes, int ranks) {
  const int64_t b = effective_bytes(op, bytes);
  switch (op.op) {
    case BenchOp::kAllgather:
    case BenchOp::kAlltoall:
    case BenchOp::kReduceScatterBlock:
    case BenchOp::kGather:
    case BenchOp::kScatter:
      return b * ranks;
    case BenchOp::kGatherv:
    case BenchOp::kScatterv:
    case BenchOp::kAllgatherv:
    case BenchOp::kAlltoallv:
    case BenchOp::kAlltoallw:
      return 2 * b * ranks;  // random blocks reach twice the mean
    default:
      return b;
  }
}

namespace {

// Blocks back to back in rank order: block j has size_of(j) bytes.
template <typename F>
int64_t lay_out(int ranks, F size_of, std::vector<int>* counts, std::vector<int>* displs) {
  int64_t pos = 0;
  for (int j = 0; j < ranks; ++j) {
    counts->push_back(static_cast<int>(size_of(j)));
    displs->push_back(static_cast<int>(pos));
    pos += counts->back();
  }
  return pos;
}

OpBuffers make_vector_buffers(const OpInfo& op, int64_t mean, int ranks, int rank, const CountsPattern& pat) {
  OpBuffers b;
  b.type = MPI_BYTE;
  auto block_of = [&](int j) { return block_bytes(pat, mean, ranks, j, 0); };
  int64_t send = 0, recv = 0;
  b.count = static_cast<int>(block_of(rank));
  switch (op.op) {
    case BenchOp::kGatherv:
    case BenchOp::kAllgatherv:
      send = b.count;
      recv = lay_out(ranks, block_of, &b.recv_counts, &b.recv_displs);
      break;
    case BenchOp::kScatterv:
      send = lay_out(ranks, block_of, &b.send_counts, &b.send_displs);
      recv = b.count;
      break;
    default:  // alltoallv, alltoallw
      if (op.op == BenchOp::kAlltoallw) b.types.assign(static_cast<size_t>(ranks), MPI_BYTE);
      send = lay_out(ranks, [&](int d) { return block_bytes(pat, mean, ranks, rank, d); }, &b.send_counts,
                     &b.send_displs);
      recv = lay_out(ranks, [&](int s) { return block_bytes(pat, mean, ranks, s, rank); }, &b.recv_counts,
                     &b.recv_displs);
      break;
  }
  b.send.assign(static_cast<size_t>(std::max<int64_t>(send, 4)), 0);
  b.recv.assign(static_cast<size_t>(std::max<int64_t>(recv, 4)), 0);
  return b;
}

}  // namespace

OpBuffers make_buffers(const OpInfo& op, int64_t bytes, int ranks, int rank, const CountsPattern& counts) {
  if (op.vector) return make_vector_buffers(op, effective_bytes(op, bytes), ranks, rank, counts);
  OpBuffers b;
  const int64_t n = effective_bytes(op, bytes);
  b.type = op.reduction ? MPI_FLOAT : MPI_BYTE;
  b.count = static_cast<int>(op.reduction ? n / 4 : n);
  int64_t send = n, recv = n;
  switch (op.op) {
    case BenchOp::kBcast: send = 0; break;
    case BenchOp::kAllgather: case BenchOp::kGather: recv = n * ranks; break;
    case BenchOp::kAlltoall: send = recv = n * ranks; break;
    case BenchOp::kReduceScatterBlock: send = n * ranks; break;
    case BenchOp::kScatter: send = n * ranks; break;
    case BenchOp::kBarrier: send = recv = 0; break;
    default: break;
  }
  b.send.assign(static_cast<size_t>(std::max<int64_t>(send, 4)), 0);
  b.recv.assign(static_cast<size_t>(std::max<int64_t>(recv, 4)), 0);
  if (op.reduction) {
    // Defined values (no NaN or denormals slowing the reductions down).
    float* s = floats(b.send);
    for (size_t i = 0; i < b.send.size() / 4; ++i) s[i] = 1.0f;
  }
  return b;
}

namespace {

hiercoll::CallArgs args_of(OpBuffers& b, int root, MPI_Comm comm) {
  hiercoll::CallArgs args =
      hiercoll::same_type_args(b.send.data(), b.recv.data(), b.count, b.type, MPI_SUM, root, comm);
  args.sendcounts = b.send_counts.data();
  args.sdispls = b.send_displs.data();
  args.recvcounts = b.recv_counts.data();
  args.rdispls = b.recv_displs.data();
  if (!b.types.empty()) args.sendtypes = args.recvtypes = b.types.data();
  return args;
}

hiercoll::Via via(bool hc) { return hc ? hiercoll::Via::kMpi : hiercoll::Via::kPmpi; }

}  // namespace

int call_op(const OpInfo& op, bool hc, OpBuffers& b, int root, MPI_Comm comm) {
  return hiercoll::call_by_op(api_op(op.op), via(hc), args_of(b, root, comm));
}

int start_op(const OpInfo& op, bool hc, OpBuffers& b, int root, MPI_Comm comm, MPI_Request* request) {
  return hiercoll::start_by_op(api_op(op.op), via(hc), args_of(b, root, comm), request);
}

int init_op(const OpInfo& op, bool hc, OpBuffers& b, int root, MPI_Comm comm, MPI_Request* request) {
  return hiercoll::init_by_op(api_op(op.op), via(hc), args_of(b, root, comm), MPI_INFO_NULL, request);
}

void fill_for_check(const OpInfo& op, OpBuffers& b, int rank, int ranks, int root) {
  const int64_t n = b.count;
  std::fill(b.recv.begin(), b.recv.end(), 0);
  if (op.reduction) {
    const int64_t total = op.op == BenchOp::kReduceScatterBlock ? n * ranks : n;
    float* s = floats(b.send);
    for (int64_t i = 0; i < total; ++i) s[i] = pattern_float(rank, i);
    return;
  }
  switch (op.op) {
    case BenchOp::kBcast:
      if (rank == root)
        for (int64_t i = 0; i < n; ++i) b.recv[i] = static_cast<char>(pattern_byte(root, 0, i));
      break;
    case BenchOp::kAllgather:
    case BenchOp::kGather:
      for (int64_t i = 0; i < n; ++i) b.send[i] = static_cast<char>(pattern_byte(rank, 0, i));
      break;
    case BenchOp::kAlltoall:
      for (int d = 0; d < ranks; ++d)
        for (int64_t i = 0; i < n; ++i) b.send[d * n + i] = static_cast<char>(pattern_byte(rank, d, i));
      break;
    case BenchOp::kScatter:
      if (rank == root)
        for (int d = 0; d < ranks; ++d)
          for (int64_t i = 0; i < n; ++i) b.send[d * n + i] = static_cast<char>(pattern_byte(d, 0, i));
      break;
    case BenchOp::kGatherv:
    case BenchOp::kAllgatherv:
      for (int64_t i = 0; i < n; ++i) b.send[i] = static_cast<char>(pattern_byte(rank, 0, i));
      break;
    case BenchOp::kScatterv:
    case BenchOp::kAlltoallv:
    case BenchOp::kAlltoallw:
      // Block d: scatterv's for rank d (the root's matter), alltoallv's to rank d.
      for (int d = 0; d < ranks; ++d)
        for (int64_t i = 0; i < b.send_counts[d]; ++i)
          b.send[b.send_displs[d] + i] = static_cast<char>(
              op.op == BenchOp::kScatterv ? pattern_byte(d, 0, i) : pattern_byte(rank, d, i));
      break;
    default:
      break;
  }
}

namespace {

// The receive buffer's floats from element `first` of the pattern's sums
// over ranks lo..hi-1.
bool sums_match(const OpBuffers& b, int lo, int hi, int64_t first) {
  const float* r = floats(b.recv);
  const PatternSum sum(lo, hi);
  for (int64_t i = 0; i < b.count; ++i)
    if (r[i] != sum(first + i)) return false;
  return true;
}

// What this rank receives of a reduction.
bool verify_reduction(const OpInfo& op, const OpBuffers& b, int rank, int ranks, int root) {
  switch (op.op) {
    case BenchOp::kReduce: return rank != root || sums_match(b, 0, ranks, 0);
    case BenchOp::kAllreduce: return sums_match(b, 0, ranks, 0);
    case BenchOp::kScan: return sums_match(b, 0, rank + 1, 0);
    case BenchOp::kExscan: return rank == 0 || sums_match(b, 0, rank, 0);
    case BenchOp::kReduceScatterBlock: return sums_match(b, 0, ranks, rank * b.count);
    default: return true;
  }
}

// n bytes of the receive buffer from `at` hold the pattern of rank from's
// block for rank to.
bool bytes_match(const OpBuffers& b, int64_t at, int64_t n, int from, int to) {
  for (int64_t i = 0; i < n; ++i)
    if (static_cast<unsigned char>(b.recv[at + i]) != pattern_byte(from, to, i)) return false;
  return true;
}

// What this rank receives of data movement.
bool verify_movement(const OpInfo& op, const OpBuffers& b, int rank, int ranks, int root) {
  const int64_t n = b.count;
  switch (op.op) {
    case BenchOp::kBcast: return bytes_match(b, 0, n, root, 0);
    case BenchOp::kGather:
      if (rank != root) return true;
      [[fallthrough]];
    case BenchOp::kAllgather:
      for (int s = 0; s < ranks; ++s)
        if (!bytes_match(b, s * n, n, s, 0)) return false;
      return true;
    case BenchOp::kAlltoall:
      for (int s = 0; s < ranks; ++s)
        if (!bytes_match(b, s * n, n, s, rank)) return false;
      return true;
    case BenchOp::kScatter:
    case BenchOp::kScatterv: return bytes_match(b, 0, n, rank, 0);
    case BenchOp::kGatherv:
      if (rank != root) return true;
      [[fallthrough]];
    case BenchOp::kAllgatherv:
    case BenchOp::kAlltoallv:
    case BenchOp::kAlltoallw: {
      // Block s of the receive side: rank s's (alltoallv/w: what s sent me).
      const bool all_to_all = op.op == BenchOp::kAlltoallv || op.op == BenchOp::kAlltoallw;
      for (int s = 0; s < ranks; ++s)
        if (!bytes_match(b, b.recv_displs[s], b.recv_counts[s], s, all_to_all ? rank : 0)) return false;
      return true;
    }
    default: return true;  // barrier
  }
}

}  // namespace

bool verify(const OpInfo& op, const OpBuffers& b, int rank, int ranks, int root) {
  return op.reduction ? verify_reduction(op, b, rank, ranks, root) : verify_movement(op, b, rank, ranks, root);
}

}  // namespace hcbench
