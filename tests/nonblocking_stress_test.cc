// Nonblocking requests under stress, on every emulated layout, with and
// without the progress thread (tests/BUILD).  Each round starts 33 requests
// in a seeded random order, the same on every rank: every
// nonblocking collective, those hiercoll serves (bcast, reduce, allreduce,
// allgather, alltoall, gather, scatter, scan, exscan, reduce_scatter,
// reduce_scatter_block, barrier, gatherv, scatterv, allgatherv, alltoallv)
// and the one it hands to MPI (alltoallw), and a ring of
// MPI_Isend/MPI_Irecv pairs, spread over a dup of MPI_COMM_WORLD, a split
// in reversed rank order, a dup with hints and, every other round, a dup
// freed right after its last call started.  User operations (a commutative
// one and a non-commutative composition of affine maps) and derived
// datatypes (a dup of MPI_INT, a strided vector resized, a contiguous pair)
// are made for each call and freed right after it starts.  Counts are 0,
// 1, odd or a few thousand (several segments on the hinted communicator),
// roots vary.  Every rank then completes the round's requests in an order
// of its own through one of Wait, Waitall, Waitany, Waitsome, Test,
// Testall, Testany, Testsome, and every result is compared bit for bit with
// values computed locally: reductions in rank order, the gaps of strided
// types and v-variants untouched, each request reported complete once, a
// receive's status naming its source, tag and size.  With
// HIERCOLL_MODE=off the suite checks itself against Open MPI alone
// (mpi_alone() below).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "runtime/progress_thread.h"
#include "runtime/requests.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

// Every int of a buffer that no call may write holds this.
constexpr int kGap = -0x5b5b5b5c;

// ---------------------------------------------------------------- layouts

// How a call's elements lie in memory.
enum class Layout { kInt, kDupInt, kStrided, kPair };
constexpr int kLayouts = 4;

struct Shape {
  const char* name;
  int extent;             // ints from one element to the next
  std::vector<int> data;  // offsets of the element's ints; the others are gaps
};

const Shape& shape(Layout l) {
  static const Shape shapes[kLayouts] = {
      {"int", 1, {0}}, {"dup_int", 1, {0}}, {"strided", 4, {0, 2}}, {"pair", 2, {0, 1}}};
  return shapes[static_cast<int>(l)];
}

int ints_per_element(Layout l) { return static_cast<int>(shape(l).data.size()); }

// The datatype of `l`: MPI_INT, or a new committed type the caller frees.
MPI_Datatype new_type(Layout l) {
  MPI_Datatype t = MPI_INT, vec;
  switch (l) {
    case Layout::kInt:
      return MPI_INT;
    case Layout::kDupInt:
      MPI_Type_dup(MPI_INT, &t);
      break;
    case Layout::kStrided:  // ints 0 and 2 of an extent of four
      MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
      MPI_Type_create_resized(vec, 0, 4 * sizeof(int), &t);
      MPI_Type_free(&vec);
      break;
    case Layout::kPair:
      MPI_Type_contiguous(2, MPI_INT, &t);
      break;
  }
  MPI_Type_commit(&t);
  return t;
}

// ----------------------------------------------------------------- values

// Int i (counting the data ints of a buffer in order, gaps skipped) of what
// rank r contributes to the call with this salt: below 2^16, so that sums
// over the ranks are exact.
int value(int r, int64_t i, int salt) { return static_cast<int>((r * 7919LL + i * 31 + salt * 104729LL) % 65521); }

// The ints of elements [first, first + n) of rank r's input in layout l.
std::vector<int> elements(Layout l, int r, int64_t first, int64_t n, int salt) {
  const int per = ints_per_element(l);
  std::vector<int> v(static_cast<size_t>(n * per));
  for (int64_t i = 0; i < n * per; ++i) v[i] = value(r, first * per + i, salt);
  return v;
}

// Room for `elems` elements of l (at least one, so that no buffer is null),
// every int kGap.
std::vector<int> gaps(Layout l, int64_t elems) {
  return std::vector<int>(static_cast<size_t>(std::max<int64_t>(elems, 1) * shape(l).extent), kGap);
}

// Writes `ints` into the data ints of buf's elements from element `elem` on.
void put(Layout l, std::vector<int>& buf, int64_t elem, const std::vector<int>& ints) {
  const Shape& s = shape(l);
  const size_t per = s.data.size();
  for (size_t j = 0; j < ints.size(); ++j) buf[(elem + j / per) * s.extent + s.data[j % per]] = ints[j];
}

// `elems` elements of l holding `ints`, gaps elsewhere.
std::vector<int> holding(Layout l, int64_t elems, const std::vector<int>& ints) {
  std::vector<int> b = gaps(l, elems);
  put(l, b, 0, ints);
  return b;
}

// Rank r's input of `elems` elements of l.
std::vector<int> filled(Layout l, int64_t elems, int r, int salt) {
  return holding(l, elems, elements(l, r, 0, elems, salt));
}

// ------------------------------------------------------------- reductions

// MPI_SUM on MPI_INT; on a dup of MPI_INT the user operation
// x + y + 2xy (mod 2^31), commutative and associative since
// (1 + 2x)(1 + 2y) = 1 + 2(x + y + 2xy); on int pairs (a, b), the maps
// t -> a t + b (mod 2^31) composed in rank order, which is not commutative.
enum class Reduction { kSum, kOddProduct, kAffine };
constexpr int kReductions = 3;
const char* const kReductionNames[kReductions] = {"sum", "odd_product", "affine"};

Layout layout_of(Reduction red) {
  static const Layout layouts[kReductions] = {Layout::kInt, Layout::kDupInt, Layout::kPair};
  return layouts[static_cast<int>(red)];
}

int low31(uint64_t x) { return static_cast<int>(x & 0x7fffffff); }

// One element: inout = in o inout, `in` coming from the lower ranks (MPI's
// order for user functions).
void combine(Reduction red, const int* in, int* inout) {
  const uint64_t x = static_cast<uint32_t>(in[0]), y = static_cast<uint32_t>(inout[0]);
  switch (red) {
    case Reduction::kSum:
      inout[0] += in[0];
      break;
    case Reduction::kOddProduct:
      inout[0] = low31(x + y + 2 * x * y);
      break;
    case Reduction::kAffine:  // first in's map, then inout's
      inout[1] = low31(y * static_cast<uint32_t>(in[1]) + static_cast<uint32_t>(inout[1]));
      inout[0] = low31(y * x);
      break;
  }
}

template <Reduction kRed>
void user_function(void* in, void* inout, int* len, MPI_Datatype*) {
  const int per = ints_per_element(layout_of(kRed));
  for (int e = 0; e < *len; ++e) combine(kRed, static_cast<int*>(in) + e * per, static_cast<int*>(inout) + e * per);
}

// The operation of `red`: MPI_SUM, or a new one the caller frees.
MPI_Op new_op(Reduction red) {
  MPI_Op op = MPI_SUM;
  if (red == Reduction::kOddProduct) MPI_Op_create(&user_function<Reduction::kOddProduct>, /*commute=*/1, &op);
  if (red == Reduction::kAffine) MPI_Op_create(&user_function<Reduction::kAffine>, /*commute=*/0, &op);
  return op;
}

// Elements [first, first + n) of the inputs of ranks lo..hi reduced in
// rank order: x_lo o x_lo+1 o ... o x_hi.
std::vector<int> fold(Reduction red, int lo, int hi, int64_t first, int64_t n, int salt) {
  const Layout l = layout_of(red);
  const int per = ints_per_element(l);
  std::vector<int> acc = elements(l, hi, first, n, salt);
  for (int r = hi - 1; r >= lo; --r) {
    const std::vector<int> x = elements(l, r, first, n, salt);
    for (int64_t e = 0; e < n; ++e) combine(red, &x[e * per], &acc[e * per]);
  }
  return acc;
}

// ------------------------------------------------------- v-variant blocks

// Elements rank j puts in (or takes from) a v-call of base count n: some
// none, all none when n is 0.
int vcount(int n, int j) { return n == 0 || j % 3 == 2 ? 0 : n + j; }

// Elements rank `from` sends to rank `to` in an alltoallv/w of base count n.
int pair_count(int n, int from, int to) { return vcount(n, from + 2 * to); }

// Blocks of counts[j] elements laid out in reverse rank order, a gap of one
// element after each.
struct Blocks {
  std::vector<int> counts, displs;
  int64_t elems = 0;  // the whole buffer's
};

Blocks reversed(std::vector<int> counts) {
  Blocks b;
  b.displs.assign(counts.size(), 0);
  for (int j = static_cast<int>(counts.size()) - 1; j >= 0; --j) {
    b.displs[j] = static_cast<int>(b.elems);
    b.elems += counts[j] + 1;
  }
  b.counts = std::move(counts);
  return b;
}

Blocks v_blocks(int n, int p) {
  std::vector<int> counts(p);
  for (int j = 0; j < p; ++j) counts[j] = vcount(n, j);
  return reversed(counts);
}

// An alltoallv's blocks: what `rank` sends (sending) or receives, in
// elements times `scale`.
Blocks exchange_blocks(int n, int rank, int p, bool sending, int scale) {
  std::vector<int> counts(p);
  for (int j = 0; j < p; ++j) counts[j] = scale * (sending ? pair_count(n, rank, j) : pair_count(n, j, rank));
  return reversed(counts);
}

std::vector<int> byte_displs(const Blocks& b, Layout l) {
  std::vector<int> d = b.displs;
  for (int& x : d) x *= shape(l).extent * static_cast<int>(sizeof(int));
  return d;
}

// ------------------------------------------------------------------ calls

enum class Kind {
  kBcast, kReduce, kAllreduce, kAllgather, kAlltoall, kGather, kScatter, kScan, kExscan,
  kReduceScatter, kReduceScatterBlock, kBarrier,
  kGatherv, kScatterv, kAllgatherv, kAlltoallv, kAlltoallw,
  kIsend, kIrecv,
};
constexpr int kCollectives = 17;  // the kinds before kIsend
constexpr int kLastingComms = 3;  // lasting_comms(); a round's own comes after them

const char* kind_name(Kind k) {
  static const char* const names[] = {
      "Ibcast", "Ireduce", "Iallreduce", "Iallgather", "Ialltoall", "Igather", "Iscatter", "Iscan", "Iexscan",
      "Ireduce_scatter", "Ireduce_scatter_block", "Ibarrier",
      "Igatherv", "Iscatterv", "Iallgatherv", "Ialltoallv", "Ialltoallw",
      "Isend", "Irecv"};
  return names[static_cast<int>(k)];
}

bool is_reduction(Kind k) {
  return k == Kind::kReduce || k == Kind::kAllreduce || k == Kind::kScan || k == Kind::kExscan ||
         k == Kind::kReduceScatter || k == Kind::kReduceScatterBlock;
}

// Kinds whose count is per rank, so that their buffers hold p times it.
bool is_per_rank(Kind k) {
  return k == Kind::kAllgather || k == Kind::kAlltoall || k == Kind::kGather || k == Kind::kScatter ||
         k == Kind::kReduceScatter || k == Kind::kReduceScatterBlock || k >= Kind::kGatherv;
}

// A call as the round's plan has it, the same on every rank.
struct CallSpec {
  Kind kind = Kind::kBarrier;
  int comm = 0;   // index in the round's communicators
  int count = 0;  // elements (per rank for is_per_rank kinds; v-variants: the base of vcount)
  int root = 0;
  Layout layout = Layout::kInt;  // reductions: layout_of(reduction); alltoallw: strided to int/dup_int
  Reduction reduction = Reduction::kSum;
  int salt = 0;  // the call's own values; a message's tag
};

struct Comm {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  std::string name;
};

Comm described(MPI_Comm c, const std::string& name) {
  Comm x{c, 0, 1, name};
  MPI_Comm_rank(c, &x.rank);
  MPI_Comm_size(c, &x.size);
  return x;
}

// One started request, its buffers (alive until it completes) and what
// `out` must hold then.
struct Call {
  CallSpec spec;
  Comm on;
  std::vector<int> in, out, expected;
  bool check_out = true;  // false where MPI leaves the result undefined
  int recv_from = MPI_PROC_NULL;  // Irecv: the source its status must name
  std::vector<int> scounts, sdispls, rcounts, rdispls;
  std::vector<MPI_Datatype> stypes, rtypes;
  // Made for this call, freed right after it starts.
  std::vector<MPI_Datatype> made_types;
  MPI_Op made_op = MPI_OP_NULL;

  MPI_Datatype type(Layout l) {
    const MPI_Datatype t = new_type(l);
    if (t != MPI_INT) made_types.push_back(t);
    return t;
  }
  MPI_Op op() {
    const MPI_Op o = new_op(spec.reduction);
    if (o != MPI_SUM) made_op = o;
    return o;
  }
  int tag() const { return spec.salt % 32768; }
  std::string describe() const {
    return std::string(kind_name(spec.kind)) + " on " + on.name + " count " + std::to_string(spec.count) + " root " +
           std::to_string(spec.root) + " layout " + shape(spec.layout).name +
           (is_reduction(spec.kind) ? std::string(" op ") + kReductionNames[static_cast<int>(spec.reduction)] : "") +
           " salt " + std::to_string(spec.salt);
  }
};

// Starters: fill the call's buffers and expected result, start it.

int start_bcast(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  c.expected = filled(s.layout, s.count, s.root, s.salt);
  c.out = c.on.rank == s.root ? c.expected : gaps(s.layout, s.count);
  return MPI_Ibcast(c.out.data(), s.count, c.type(s.layout), s.root, c.on.comm, req);
}

// A reduction's buffers: `in_elems` of input; `out_elems` of result holding
// elements [first, first + out_elems) reduced over ranks lo..hi.
void prepare_reduction(Call& c, int64_t in_elems, int64_t first, int64_t out_elems, int lo, int hi) {
  const CallSpec& s = c.spec;
  c.in = filled(s.layout, in_elems, c.on.rank, s.salt);
  c.out = gaps(s.layout, out_elems);
  c.expected = holding(s.layout, out_elems, fold(s.reduction, lo, hi, first, out_elems, s.salt));
}

int start_reduce(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  prepare_reduction(c, s.count, 0, c.on.rank == s.root ? s.count : 0, 0, c.on.size - 1);
  return MPI_Ireduce(c.in.data(), c.out.data(), s.count, c.type(s.layout), c.op(), s.root, c.on.comm, req);
}

int start_allreduce(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  prepare_reduction(c, s.count, 0, s.count, 0, c.on.size - 1);
  return MPI_Iallreduce(c.in.data(), c.out.data(), s.count, c.type(s.layout), c.op(), c.on.comm, req);
}

int start_scan(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  prepare_reduction(c, s.count, 0, s.count, 0, c.on.rank);
  return MPI_Iscan(c.in.data(), c.out.data(), s.count, c.type(s.layout), c.op(), c.on.comm, req);
}

int start_exscan(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  prepare_reduction(c, s.count, 0, s.count, 0, std::max(c.on.rank - 1, 0));
  c.check_out = c.on.rank > 0;  // rank 0's result is undefined
  return MPI_Iexscan(c.in.data(), c.out.data(), s.count, c.type(s.layout), c.op(), c.on.comm, req);
}

int start_reduce_scatter_block(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  prepare_reduction(c, int64_t(s.count) * c.on.size, int64_t(s.count) * c.on.rank, s.count, 0, c.on.size - 1);
  return MPI_Ireduce_scatter_block(c.in.data(), c.out.data(), s.count, c.type(s.layout), c.op(), c.on.comm, req);
}

int start_reduce_scatter(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const Blocks b = v_blocks(s.count, c.on.size);
  c.rcounts = b.counts;
  const int r = c.on.rank;
  const int64_t first = std::accumulate(b.counts.begin(), b.counts.begin() + r, int64_t(0));
  const int64_t total = std::accumulate(b.counts.begin(), b.counts.end(), int64_t(0));
  prepare_reduction(c, total, first, b.counts[r], 0, c.on.size - 1);
  return MPI_Ireduce_scatter(c.in.data(), c.out.data(), c.rcounts.data(), c.type(s.layout), c.op(), c.on.comm, req);
}

// Every rank's count elements, in rank order (allgather's result).
std::vector<int> gathered(Layout l, int count, int p, int salt) {
  std::vector<int> e = gaps(l, int64_t(count) * p);
  for (int j = 0; j < p; ++j) put(l, e, int64_t(count) * j, elements(l, j, 0, count, salt));
  return e;
}

int start_allgather(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  c.in = filled(s.layout, s.count, c.on.rank, s.salt);
  c.out = gaps(s.layout, int64_t(s.count) * c.on.size);
  c.expected = gathered(s.layout, s.count, c.on.size, s.salt);
  const MPI_Datatype t = c.type(s.layout);
  return MPI_Iallgather(c.in.data(), s.count, t, c.out.data(), s.count, t, c.on.comm, req);
}

int start_gather(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const bool root = c.on.rank == s.root;
  c.in = filled(s.layout, s.count, c.on.rank, s.salt);
  c.out = gaps(s.layout, root ? int64_t(s.count) * c.on.size : 0);
  c.expected = root ? gathered(s.layout, s.count, c.on.size, s.salt) : c.out;
  const MPI_Datatype t = c.type(s.layout);
  return MPI_Igather(c.in.data(), s.count, t, c.out.data(), s.count, t, s.root, c.on.comm, req);
}

int start_scatter(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const int64_t n = s.count;
  c.in = c.on.rank == s.root ? filled(s.layout, n * c.on.size, s.root, s.salt) : gaps(s.layout, 0);
  c.out = gaps(s.layout, n);
  c.expected = holding(s.layout, n, elements(s.layout, s.root, n * c.on.rank, n, s.salt));
  const MPI_Datatype t = c.type(s.layout);
  return MPI_Iscatter(c.in.data(), s.count, t, c.out.data(), s.count, t, s.root, c.on.comm, req);
}

int start_alltoall(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const int64_t n = s.count;
  const int p = c.on.size;
  c.in = filled(s.layout, n * p, c.on.rank, s.salt);
  c.out = gaps(s.layout, n * p);
  c.expected = c.out;
  for (int j = 0; j < p; ++j) put(s.layout, c.expected, n * j, elements(s.layout, j, n * c.on.rank, n, s.salt));
  const MPI_Datatype t = c.type(s.layout);
  return MPI_Ialltoall(c.in.data(), s.count, t, c.out.data(), s.count, t, c.on.comm, req);
}

int start_barrier(Call& c, MPI_Request* req) { return MPI_Ibarrier(c.on.comm, req); }

// Every rank's vcount elements in the blocks b (gatherv's result).
std::vector<int> gathered_v(Layout l, const Blocks& b, int salt) {
  std::vector<int> e = gaps(l, b.elems);
  for (size_t j = 0; j < b.counts.size(); ++j) put(l, e, b.displs[j], elements(l, int(j), 0, b.counts[j], salt));
  return e;
}

int start_gatherv(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const bool root = c.on.rank == s.root;
  const Blocks b = v_blocks(s.count, c.on.size);
  c.rcounts = b.counts;
  c.rdispls = b.displs;
  c.in = filled(s.layout, b.counts[c.on.rank], c.on.rank, s.salt);
  c.out = gaps(s.layout, root ? b.elems : 0);
  c.expected = root ? gathered_v(s.layout, b, s.salt) : c.out;
  const MPI_Datatype t = c.type(s.layout);
  return MPI_Igatherv(c.in.data(), b.counts[c.on.rank], t, c.out.data(), c.rcounts.data(), c.rdispls.data(), t,
                      s.root, c.on.comm, req);
}

int start_allgatherv(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const Blocks b = v_blocks(s.count, c.on.size);
  c.rcounts = b.counts;
  c.rdispls = b.displs;
  c.in = filled(s.layout, b.counts[c.on.rank], c.on.rank, s.salt);
  c.out = gaps(s.layout, b.elems);
  c.expected = gathered_v(s.layout, b, s.salt);
  const MPI_Datatype t = c.type(s.layout);
  return MPI_Iallgatherv(c.in.data(), b.counts[c.on.rank], t, c.out.data(), c.rcounts.data(), c.rdispls.data(), t,
                         c.on.comm, req);
}

int start_scatterv(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const int r = c.on.rank;
  const Blocks b = v_blocks(s.count, c.on.size);
  c.scounts = b.counts;
  c.sdispls = b.displs;
  c.in = r == s.root ? filled(s.layout, b.elems, s.root, s.salt) : gaps(s.layout, 0);
  c.out = gaps(s.layout, b.counts[r]);
  c.expected = holding(s.layout, b.counts[r], elements(s.layout, s.root, b.displs[r], b.counts[r], s.salt));
  const MPI_Datatype t = c.type(s.layout);
  return MPI_Iscatterv(c.in.data(), c.scounts.data(), c.sdispls.data(), t, c.out.data(), b.counts[r], t, s.root,
                       c.on.comm, req);
}

// What an alltoallv/w of base count n leaves on this rank: from each rank j
// the block j sent it (elements of `sent` from j's input), written as
// elements of `got` into the blocks `received`.
std::vector<int> exchanged(const Call& c, Layout sent, Layout got, const Blocks& received) {
  const CallSpec& s = c.spec;
  const int r = c.on.rank, p = c.on.size;
  std::vector<int> e = gaps(got, received.elems);
  for (int j = 0; j < p; ++j) {
    const int first = exchange_blocks(s.count, j, p, /*sending=*/true, 1).displs[r];
    put(got, e, received.displs[j], elements(sent, j, first, pair_count(s.count, j, r), s.salt));
  }
  return e;
}

int start_alltoallv(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const int r = c.on.rank, p = c.on.size;
  const Blocks sends = exchange_blocks(s.count, r, p, /*sending=*/true, 1);
  const Blocks recvs = exchange_blocks(s.count, r, p, /*sending=*/false, 1);
  c.scounts = sends.counts;
  c.sdispls = sends.displs;
  c.rcounts = recvs.counts;
  c.rdispls = recvs.displs;
  c.in = filled(s.layout, sends.elems, r, s.salt);
  c.out = gaps(s.layout, recvs.elems);
  c.expected = exchanged(c, s.layout, s.layout, recvs);
  const MPI_Datatype t = c.type(s.layout);
  return MPI_Ialltoallv(c.in.data(), c.scounts.data(), c.sdispls.data(), t, c.out.data(), c.rcounts.data(),
                        c.rdispls.data(), t, c.on.comm, req);
}

// Sends strided elements, receives their ints as MPI_INT from even ranks
// and as a dup of MPI_INT from odd ones.
int start_alltoallw(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  const int r = c.on.rank, p = c.on.size;
  const Blocks sends = exchange_blocks(s.count, r, p, /*sending=*/true, 1);
  const Blocks recvs = exchange_blocks(s.count, r, p, /*sending=*/false, ints_per_element(Layout::kStrided));
  c.scounts = sends.counts;
  c.sdispls = byte_displs(sends, Layout::kStrided);
  c.rcounts = recvs.counts;
  c.rdispls = byte_displs(recvs, Layout::kInt);
  c.stypes.assign(p, c.type(Layout::kStrided));
  const MPI_Datatype dup = c.type(Layout::kDupInt);
  for (int j = 0; j < p; ++j) c.rtypes.push_back(j % 2 ? dup : MPI_INT);
  c.in = filled(Layout::kStrided, sends.elems, r, s.salt);
  c.out = gaps(Layout::kInt, recvs.elems);
  c.expected = exchanged(c, Layout::kStrided, Layout::kInt, recvs);
  return MPI_Ialltoallw(c.in.data(), c.scounts.data(), c.sdispls.data(), c.stypes.data(), c.out.data(),
                        c.rcounts.data(), c.rdispls.data(), c.rtypes.data(), c.on.comm, req);
}

// A ring: every rank sends to the next one and receives from the previous.
int start_isend(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  c.in = filled(s.layout, s.count, c.on.rank, s.salt);
  return MPI_Isend(c.in.data(), s.count, c.type(s.layout), (c.on.rank + 1) % c.on.size, c.tag(), c.on.comm, req);
}

int start_irecv(Call& c, MPI_Request* req) {
  const CallSpec& s = c.spec;
  c.recv_from = (c.on.rank + c.on.size - 1) % c.on.size;
  c.out = gaps(s.layout, s.count);
  c.expected = filled(s.layout, s.count, c.recv_from, s.salt);
  return MPI_Irecv(c.out.data(), s.count, c.type(s.layout), c.recv_from, c.tag(), c.on.comm, req);
}

using Starter = int (*)(Call&, MPI_Request*);

Starter starter(Kind k) {
  static const Starter starters[] = {
      start_bcast, start_reduce, start_allreduce, start_allgather, start_alltoall, start_gather, start_scatter,
      start_scan, start_exscan, start_reduce_scatter, start_reduce_scatter_block, start_barrier,
      start_gatherv, start_scatterv, start_allgatherv, start_alltoallv, start_alltoallw,
      start_isend, start_irecv};
  return starters[static_cast<int>(k)];
}

// Starts the call and frees what was made for it at once: MPI keeps them
// for the operation under way.
void start(Call& c, MPI_Request* req) {
  EXPECT_EQ(starter(c.spec.kind)(c, req), MPI_SUCCESS) << c.describe();
  for (MPI_Datatype& t : c.made_types) {
    EXPECT_EQ(MPI_Type_free(&t), MPI_SUCCESS) << c.describe();
  }
  if (c.made_op != MPI_OP_NULL) {
    EXPECT_EQ(MPI_Op_free(&c.made_op), MPI_SUCCESS) << c.describe();
  }
}

// ------------------------------------------------------------------ plans

constexpr int kExtraCalls = 12;  // random collectives besides one of each kind
constexpr int kRings = 2;        // Isend/Irecv rings
constexpr int kLargeCount = 3001;
constexpr int kLargePerRank = 1001;

// 0, 1, odd, or a few thousand elements in all.
int random_count(std::mt19937& rng, Kind k) {
  switch (rng() % 4) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 2 * static_cast<int>(rng() % 20) + 3;
    default: return (is_per_rank(k) ? kLargePerRank : kLargeCount) + 2 * static_cast<int>(rng() % 50);
  }
}

CallSpec random_spec(std::mt19937& rng, Kind kind, int comm, int p, int salt) {
  CallSpec s;
  s.kind = kind;
  s.comm = comm;
  s.count = random_count(rng, kind);
  s.root = static_cast<int>(rng() % p);
  s.layout = static_cast<Layout>(rng() % kLayouts);
  s.reduction = static_cast<Reduction>(rng() % kReductions);
  if (is_reduction(kind)) s.layout = layout_of(s.reduction);
  s.salt = salt;
  return s;
}

// The round's calls in the order every rank starts them: one of each
// collective kind, kExtraCalls more, kRings rings, spread evenly over
// `comms` communicators.
// The communicator of the plan's i-th call.  Open MPI 4.1's libnbc does
// not keep a freed communicator for its own pending calls (an Ialltoallw
// of derived datatypes reads it when it completes, and crashes), so the
// call hiercoll hands to MPI never goes on the round's communicator, which
// is freed while its calls run (the lasting ones come first).
int comm_of(Kind k, int i, int comms) {
  const int c = i % comms;
  return k == Kind::kAlltoallw && c >= kLastingComms ? 0 : c;
}

std::vector<CallSpec> plan_round(uint32_t seed, int comms, int p) {
  std::mt19937 rng(seed);
  std::vector<Kind> kinds;
  for (int k = 0; k < kCollectives; ++k) kinds.push_back(static_cast<Kind>(k));
  for (int e = 0; e < kExtraCalls; ++e) kinds.push_back(static_cast<Kind>(rng() % kCollectives));
  std::shuffle(kinds.begin(), kinds.end(), rng);
  std::vector<CallSpec> plan;
  for (size_t i = 0; i < kinds.size(); ++i)
    plan.push_back(random_spec(rng, kinds[i], comm_of(kinds[i], static_cast<int>(i), comms), p, static_cast<int>(i)));
  for (int k = 0; k < kRings; ++k) {
    CallSpec send = random_spec(rng, Kind::kIsend, k % comms, p, static_cast<int>(plan.size()));
    CallSpec recv = send;
    recv.kind = Kind::kIrecv;
    plan.push_back(send);
    plan.push_back(recv);
  }
  std::shuffle(plan.begin(), plan.end(), rng);
  return plan;
}

// ------------------------------------------------------------- completion

// The requests of a round in this rank's completion order, and what the
// completion functions reported for each.
struct Pending {
  std::vector<MPI_Request> reqs;
  std::vector<MPI_Status> statuses;
  std::vector<int> completed;  // times reported complete
  explicit Pending(std::vector<MPI_Request> r)
      : reqs(std::move(r)), statuses(reqs.size()), completed(reqs.size(), 0) {}
  int n() const { return static_cast<int>(reqs.size()); }
  void record(int i, const MPI_Status& s) {
    statuses[i] = s;
    ++completed[i];
  }
};

// MPI_Wait on each in turn, or MPI_Test on each still pending in turn
// until none is.
void complete_each(Pending& q, bool wait) {
  std::vector<int> left(q.n());
  std::iota(left.begin(), left.end(), 0);
  while (!left.empty()) {
    std::vector<int> still;
    for (int i : left) {
      int flag = 1;
      MPI_Status s;
      EXPECT_EQ(wait ? MPI_Wait(&q.reqs[i], &s) : MPI_Test(&q.reqs[i], &flag, &s), MPI_SUCCESS);
      if (flag) {
        q.record(i, s);
      } else {
        still.push_back(i);
      }
    }
    left = std::move(still);
  }
}

// MPI_Waitall once, or MPI_Testall until it says all are done.
void complete_all(Pending& q, bool wait) {
  std::vector<MPI_Status> s(q.n());
  int flag = 0;
  while (!flag) {
    flag = 1;
    EXPECT_EQ(wait ? MPI_Waitall(q.n(), q.reqs.data(), s.data()) : MPI_Testall(q.n(), q.reqs.data(), &flag, s.data()),
              MPI_SUCCESS);
  }
  for (int i = 0; i < q.n(); ++i) q.record(i, s[i]);
}

// MPI_Waitany or MPI_Testany until every request has been reported.
void complete_any(Pending& q, bool wait) {
  for (int done = 0; done < q.n();) {
    int index = MPI_UNDEFINED, flag = 1;
    MPI_Status s;
    EXPECT_EQ(wait ? MPI_Waitany(q.n(), q.reqs.data(), &index, &s)
                   : MPI_Testany(q.n(), q.reqs.data(), &index, &flag, &s),
              MPI_SUCCESS);
    if (!flag) continue;
    if (index == MPI_UNDEFINED) {
      ADD_FAILURE() << "no active request left after " << done << " of " << q.n();
      return;
    }
    q.record(index, s);
    ++done;
  }
}

// MPI_Waitsome or MPI_Testsome until every request has been reported.
void complete_some(Pending& q, bool wait) {
  std::vector<int> indices(q.n());
  std::vector<MPI_Status> s(q.n());
  for (int done = 0; done < q.n();) {
    int outcount = MPI_UNDEFINED;
    EXPECT_EQ(wait ? MPI_Waitsome(q.n(), q.reqs.data(), &outcount, indices.data(), s.data())
                   : MPI_Testsome(q.n(), q.reqs.data(), &outcount, indices.data(), s.data()),
              MPI_SUCCESS);
    if (outcount == MPI_UNDEFINED || (wait && outcount == 0)) {
      ADD_FAILURE() << "outcount " << outcount << " after " << done << " of " << q.n();
      return;
    }
    for (int k = 0; k < outcount; ++k) q.record(indices[k], s[k]);
    done += outcount;
  }
}

enum class Style { kEach, kAll, kAny, kSome };

struct Completion {
  Style style;
  bool wait;  // the Wait function, else the Test one
  const char* name;
};

const Completion kCompletions[] = {
    {Style::kEach, true, "Wait"},     {Style::kAll, true, "Waitall"},   {Style::kAny, true, "Waitany"},
    {Style::kSome, true, "Waitsome"}, {Style::kEach, false, "Test"},    {Style::kAll, false, "Testall"},
    {Style::kAny, false, "Testany"},  {Style::kSome, false, "Testsome"}};

void complete(const Completion& how, Pending& q) {
  static void (*const functions[])(Pending&, bool) = {complete_each, complete_all, complete_any, complete_some};
  functions[static_cast<int>(how.style)](q, how.wait);
}

// ----------------------------------------------------------------- checks

// "" when got == want, else where they first differ.
std::string first_difference(const std::vector<int>& got, const std::vector<int>& want) {
  if (got.size() != want.size())
    return "size " + std::to_string(got.size()) + ", expected " + std::to_string(want.size());
  const auto d = std::mismatch(got.begin(), got.end(), want.begin());
  if (d.first == got.end()) return "";
  const std::string gap = *d.second == kGap ? " (a gap)" : "";
  return "int " + std::to_string(d.first - got.begin()) + gap + ": " + std::to_string(*d.first) + ", expected " +
         std::to_string(*d.second);
}

// An Irecv's status names its source, tag and size.
void check_receive_status(const Call& c, const MPI_Status& s) {
  int ints = -1;
  MPI_Get_count(&s, MPI_INT, &ints);
  EXPECT_EQ(s.MPI_SOURCE, c.recv_from) << c.describe();
  EXPECT_EQ(s.MPI_TAG, c.tag()) << c.describe();
  EXPECT_EQ(ints, c.spec.count * ints_per_element(c.spec.layout)) << c.describe();
}

// ------------------------------------------------------------------ suite

// Whether the environment turns hiercoll off: a run that checks the suite
// itself against Open MPI alone.  A hint would override the environment,
// so the hinted communicator is off too.  And Open MPI 4.1's libnbc does
// not keep a freed communicator for its pending schedules (Ireduce,
// Iallreduce, Iscan and Ibarrier crash in their later steps), so the
// round's communicator is freed only once its calls completed.
bool mpi_alone() {
  const char* env = std::getenv("HIERCOLL_MODE");
  return env && std::string(env) == "off";
}

// The hinted communicator's mode, flat and hier by turns.
const char* hinted_mode(int turn) {
  if (mpi_alone()) return "off";
  return turn % 2 ? "hier" : "flat";
}

// A dup of MPI_COMM_WORLD, a split in reversed rank order, a dup with hints
// (small segments: a few thousand ints make several).
std::vector<Comm> lasting_comms(int turn) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup, split, hinted;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &split);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "hiercoll", hinted_mode(turn));
  MPI_Info_set(info, "hiercoll_segment_bytes", "4096");
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &hinted);
  MPI_Info_free(&info);
  return {described(dup, "dup"), described(split, "split_reversed"),
          described(hinted, std::string("hinted_") + hinted_mode(turn))};
}

constexpr int kRounds = 8;  // the odd ones add a communicator freed while its calls run
constexpr char kRoundComm[] = "round_dup";

class NonblockingStress : public RankedMpiTest, public ::testing::WithParamInterface<int> {
 protected:
  void SetUp() override {
    RankedMpiTest::SetUp();
    comms_ = lasting_comms(GetParam());
    for (const Comm& c : comms_) ASSERT_EQ(c.size, size_) << c.name;
    ASSERT_EQ(comms_[1].rank, size_ - 1 - rank_) << "split in reversed order";
  }
  void TearDown() override {
    for (Comm& c : comms_) MPI_Comm_free(&c.comm);
    RankedMpiTest::TearDown();
  }

  const Completion& how() const { return kCompletions[GetParam()]; }
  uint32_t seed(int round) const { return 1000003u * (GetParam() + 1) + 7919u * round; }

  // Starts the plan's calls in order; the round's communicator is freed
  // right after its last call started.
  void start_round(const std::vector<CallSpec>& plan, std::vector<Comm>& comms,
                   std::vector<std::unique_ptr<Call>>& calls, std::vector<MPI_Request>& reqs) {
    std::vector<size_t> last_use(comms.size(), 0);
    for (size_t i = 0; i < plan.size(); ++i) last_use[plan[i].comm] = i;
    for (size_t i = 0; i < plan.size(); ++i) {
      calls.push_back(std::make_unique<Call>());
      Call& c = *calls.back();
      c.spec = plan[i];
      c.on = comms[plan[i].comm];
      start(c, &reqs[i]);
      if (last_use[plan[i].comm] == i && !mpi_alone()) free_if_round_comm(comms[plan[i].comm]);
    }
  }

  static void free_if_round_comm(Comm& c) {
    if (c.name == kRoundComm && c.comm != MPI_COMM_NULL) {
      EXPECT_EQ(MPI_Comm_free(&c.comm), MPI_SUCCESS);
    }
  }

  // Completes the requests in an order of this rank's own; checks each was
  // reported once, and the receives' statuses.
  void complete_round(std::vector<std::unique_ptr<Call>>& calls, std::vector<MPI_Request>& reqs, uint32_t seed) {
    std::vector<int> order(reqs.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937 mine(seed * 31u + static_cast<uint32_t>(rank_));
    std::shuffle(order.begin(), order.end(), mine);
    std::vector<MPI_Request> shuffled;
    for (int i : order) shuffled.push_back(reqs[i]);
    Pending q(shuffled);
    complete(how(), q);
    for (int k = 0; k < q.n(); ++k) {
      const Call& c = *calls[order[k]];
      EXPECT_EQ(q.completed[k], 1) << c.describe();
      EXPECT_EQ(q.reqs[k], MPI_REQUEST_NULL) << c.describe();
      if (c.spec.kind == Kind::kIrecv) check_receive_status(c, q.statuses[k]);
    }
  }

  void run_round(int round) {
    SCOPED_TRACE(std::string(how().name) + " round " + std::to_string(round) + " seed " +
                 std::to_string(seed(round)) + " rank " + std::to_string(rank_));
    std::vector<Comm> comms = comms_;
    if (round % 2) {
      MPI_Comm dup;
      MPI_Comm_dup(MPI_COMM_WORLD, &dup);
      comms.push_back(described(dup, kRoundComm));
    }
    const std::vector<CallSpec> plan = plan_round(seed(round), static_cast<int>(comms.size()), size_);
    std::vector<std::unique_ptr<Call>> calls;
    std::vector<MPI_Request> reqs(plan.size(), MPI_REQUEST_NULL);
    start_round(plan, comms, calls, reqs);
    complete_round(calls, reqs, seed(round));
    for (Comm& c : comms) free_if_round_comm(c);
    for (const auto& c : calls) {
      if (c->check_out) {
        EXPECT_EQ(first_difference(c->out, c->expected), "") << c->describe();
      }
    }
    // With the progress thread, the engine lets go of a call just after
    // completing its request, so only a run without it can count at once.
    if (!progress_thread_running()) {
      EXPECT_EQ(live_requests(), 0);
    }
  }

  std::vector<Comm> comms_;
};

TEST_P(NonblockingStress, RoundsCompleteWithExactResults) {
  for (int round = 0; round < kRounds; ++round) run_round(round);
}

INSTANTIATE_TEST_SUITE_P(EveryCompletion, NonblockingStress,
                         ::testing::Range(0, static_cast<int>(std::size(kCompletions))),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(kCompletions[info.param].name);
                         });

// The run asking for the progress thread gets it, or it would check
// nothing of it.
using ProgressThread = MpiTest;

TEST_F(ProgressThread, RunsWhenAskedFor) {
  if (!std::getenv("HIERCOLL_PROGRESS_THREAD")) GTEST_SKIP() << "run without the progress thread";
  if (mpi_alone()) GTEST_SKIP() << "hiercoll off: no progress thread";
  EXPECT_TRUE(progress_thread_running());
}

}  // namespace
}  // namespace hiercoll::testing
