#include "select/flat_rules.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <limits>
#include <vector>

#include "select/rules_by_op.h"

namespace hiercoll {

namespace {

constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
constexpr int kAnyP = std::numeric_limits<int>::max();

// Allgatherv blocks are skewed when the largest is more than 4 times the
// mean: a ring then forwards it p - 1 times in sequence, while recursive
// doubling and Bruck spread it in ceil(lg p) steps.
bool is_skewed(const CollArgs& a) {
  if (a.op != Op::kAllgatherv || a.counts.empty()) return false;
  int64_t total = 0, largest = 0;
  for (int64_t c : a.counts) {
    total += c;
    largest = std::max(largest, c);
  }
  return largest * a.size > 4 * total;
}

// The MPICH paper's cutoffs (Thakur, Rabenseifner and Gropp §4), in order,
// for any machine: they choose where the model does not (the v-variants,
// which no rank can cost alike, a composition's phases that the model does
// not choose, calls nothing could be costed for; select/flat_choice.h).
// No rule is shadowed by an earlier one (flat_rules_test).
const FlatRule kRules[] = {
    // bcast: binomial for short messages or few ranks; van de Geijn's
    // scatter + allgather for long ones (recursive doubling for medium
    // messages, ring for long ones where it pays (ring_pays), else
    // recursive doubling, which takes any group size here).
    {Op::kBcast, 12 * 1024, kAnyP, "binomial"},
    {Op::kBcast, kAny, 7, "binomial"},
    {Op::kBcast, 512 * 1024, kAnyP, "scatter_recursive_doubling"},
    {Op::kBcast, kAny, kAnyP, "scatter_ring", false, false, true},
    {Op::kBcast, kAny, kAnyP, "scatter_recursive_doubling"},
    // reduce: binomial up to 2 KiB, Rabenseifner's reduce-scatter + gather
    // above.  Every reduce algorithm combines in rank order (algorithms/reduce.h),
    // so non-commutative operations choose alike.
    {Op::kReduce, 2048 + 1, kAnyP, "binomial"},
    {Op::kReduce, kAny, kAnyP, "rabenseifner"},
    // allreduce: recursive doubling up to 2 KiB, Rabenseifner above; in
    // rank order too (algorithms/allreduce.h).
    {Op::kAllreduce, 2048 + 1, kAnyP, "recursive_doubling"},
    {Op::kAllreduce, kAny, kAnyP, "rabenseifner"},
    // allgather: recursive doubling below 512 KiB on powers of two, Bruck
    // below 80 KiB otherwise, ring for long messages where it pays
    // (ring_pays), else recursive doubling / Bruck.
    {Op::kAllgather, 512 * 1024, kAnyP, "recursive_doubling", true},
    {Op::kAllgather, 80 * 1024, kAnyP, "bruck"},
    {Op::kAllgather, kAny, kAnyP, "ring", false, false, true},
    {Op::kAllgather, kAny, kAnyP, "recursive_doubling", true},
    {Op::kAllgather, kAny, kAnyP, "bruck"},
    // reduce_scatter: commutative operations halve recursively below
    // 512 KiB; non-commutative ones use recursive doubling only below 512
    // bytes (§4.4): it moves n(lg p - (p-1)/p) bytes against pairwise
    // exchange's n(p-1)/p, which saves its p - 1 - lg p latencies only on
    // very short vectors.  Pairwise exchange above.
    {Op::kReduceScatter, 512 * 1024, kAnyP, "recursive_halving"},
    {Op::kReduceScatter, 512, kAnyP, "recursive_doubling"},
    {Op::kReduceScatter, kAny, kAnyP, "pairwise"},
    // alltoall: Bruck for blocks up to 256 bytes on 8 or more ranks (lg p
    // steps instead of p - 1), scattered isend/irecv for medium blocks
    // (below 32 KiB), pairwise exchange for long ones.
    {Op::kAlltoall, 256 + 1, 7, "scattered"},
    {Op::kAlltoall, 256 + 1, kAnyP, "bruck"},
    {Op::kAlltoall, 32 * 1024, kAnyP, "scattered"},
    {Op::kAlltoall, kAny, kAnyP, "pairwise"},
    // scan/exscan: recursive doubling for short vectors; for long ones the
    // linear pipeline on up to 16 ranks (the fewest operations and bytes,
    // (p-1) n), else the two-tree prefix (two-tree paper §4), whose depth
    // grows with lg p only.
    {Op::kScan, 64 * 1024, kAnyP, "recursive_doubling"},
    {Op::kScan, kAny, 16, "chain"},
    {Op::kScan, kAny, kAnyP, "twotree"},
    {Op::kExscan, 64 * 1024, kAnyP, "recursive_doubling"},
    {Op::kExscan, kAny, 16, "chain"},
    {Op::kExscan, kAny, kAnyP, "twotree"},
    {Op::kBarrier, kAny, kAnyP, "dissemination"},
    // gather and scatter: MPICH's binomial trees.
    {Op::kGather, kAny, kAnyP, "binomial"},
    {Op::kScatter, kAny, kAnyP, "binomial"},
    // The v-variants.  Only the root knows a gatherv's or scatterv's
    // blocks, and only its own blocks an alltoallv rank, so these choose by
    // group size alone (every rank must choose alike): the linear forms up
    // to 63 ranks, the binomial trees beyond, whose root handles lg p
    // messages instead of p - 1 but which first need the root's counts on
    // every rank (kAllCounts: one small bcast, lg p latencies);
    // alltoallv's scattered isend/irecv up to one batch of peers
    // (all messages in flight, as MPI's own), pairwise beyond.  Allgatherv,
    // whose blocks every rank knows, follows allgather by all blocks'
    // bytes, unless one block dominates (is_skewed).
    {Op::kGatherv, kAny, 63, "linear"},
    {Op::kGatherv, kAny, kAnyP, "binomial"},
    {Op::kScatterv, kAny, 63, "linear"},
    {Op::kScatterv, kAny, kAnyP, "binomial"},
    {Op::kAlltoallv, kAny, 32, "scattered"},
    {Op::kAlltoallv, kAny, kAnyP, "pairwise"},
    {Op::kAllgatherv, kAny, kAnyP, "recursive_doubling", true, true},
    {Op::kAllgatherv, kAny, kAnyP, "bruck", false, true},
    {Op::kAllgatherv, 512 * 1024, kAnyP, "recursive_doubling", true},
    {Op::kAllgatherv, 80 * 1024, kAnyP, "bruck"},
    {Op::kAllgatherv, kAny, kAnyP, "ring", false, false, true},
    {Op::kAllgatherv, kAny, kAnyP, "recursive_doubling", true},
    {Op::kAllgatherv, kAny, kAnyP, "bruck"},
};

}  // namespace

std::vector<FlatRule> flat_rule_table() { return std::vector<FlatRule>(std::begin(kRules), std::end(kRules)); }

int64_t selection_bytes(Op op, int64_t unit_bytes, const CollArgs& a) {
  switch (op) {
    case Op::kAllgather: case Op::kGather: case Op::kScatter: return unit_bytes * a.size;
    case Op::kAlltoall: return unit_bytes;
    case Op::kGatherv: case Op::kScatterv: case Op::kAlltoallv: return 0;  // no rank knows them all
    case Op::kAllgatherv:
    case Op::kReduceScatter: {
      int64_t total = 0;
      for (int64_t c : a.counts) total += c;
      return total * unit_bytes;
    }
    default: return unit_bytes * a.count;
  }
}

int64_t bounded_seg_units(const CollArgs& args, int64_t unit_bytes, int64_t seg_units) {
  if (seg_units <= 0) return seg_units;
  auto ceil_div = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  const int64_t units = selection_bytes(args.op, 1, args);
  const int64_t floor_units =
      std::min(ceil_div(kMinSegmentBytes, std::max<int64_t>(1, unit_bytes)), ceil_div(units, kMaxSmallSegments));
  return std::max({seg_units, floor_units, ceil_div(units, kMaxSegments)});
}

namespace {

// Allgather of `bytes` in all over p ranks (scatter + allgather bcast's
// second half) under alpha + bytes x beta, where a step's f concurrent
// messages through one node's link share it (f x the bytes).  The ring:
// p - 1 steps of one block each; each node sends one message a step over
// its link when its ranks are consecutive (its last rank's to the next
// node), else all of its ranks may.
double ring_allgather_us(int p, double block, double beta, double alpha, const LinkSharing& s) {
  const int flows = s.consecutive ? 1 : s.ranks_per_node;
  return (p - 1) * (alpha + flows * block * beta);
}

// Recursive doubling (powers of two) or Bruck (any p): ceil(lg p) steps at
// distances d = 1, 2, 4, ... moving min(d, p - d) blocks each; at distance
// d at most min(d, ranks per node) ranks of a node with consecutive ranks
// talk across its link (every rank where the ranks are not consecutive),
// an upper bound for recursive doubling, whose partners at distances below
// an aligned node's size stay inside it.
double doubling_allgather_us(int p, double block, double beta, double alpha, const LinkSharing& s) {
  double t = 0;
  for (int64_t d = 1; d < p; d *= 2) {
    const int64_t flows = s.consecutive ? std::min<int64_t>(d, s.ranks_per_node) : s.ranks_per_node;
    t += alpha + flows * std::min<int64_t>(d, p - d) * block * beta;
  }
  return t;
}

}  // namespace

bool ring_pays(int p, int64_t bytes, const MachineFigures& m, const LinkSharing& sharing) {
  if (p <= 2) return true;
  LinkSharing s = sharing;
  s.ranks_per_node = std::max(1, std::min(s.ranks_per_node, p));
  const double beta = 1 / (m.inter_bandwidth_gbps * 1e3);  // us per byte: 10^3 bytes per us per GB/s
  const double block = static_cast<double>(bytes) / p;
  const double alpha = m.inter_latency_us;
  const double tree = doubling_allgather_us(p, block, beta, alpha, s);
  const double slack = std::max(kRingSlackLatencies * alpha, kRingModelError * tree);
  // (1e-9: with one rank per node the two differ by latencies alone, which
  // the sums may round either way.)
  return ring_allgather_us(p, block, beta, alpha, s) <= tree + slack + 1e-9 * tree;
}

const Algorithm* default_algorithm(const CollArgs& args, int64_t bytes, const MachineFigures* m,
                                   const LinkSharing& sharing) {
  static const auto rules_of =
      rules_by_op<Algorithm>(kRules, [](const FlatRule& r) { return find_algorithm(r.op, r.algorithm); });
  for (const auto& o : rules_of[static_cast<int>(args.op)]) {
    const FlatRule& r = *o.rule;
    if (bytes >= r.below_bytes || args.size > r.max_p) continue;
    if (r.pow2_groups && (args.size & (args.size - 1)) != 0) continue;
    if (r.skewed_only && !is_skewed(args)) continue;
    if (r.ring && !ring_pays(args.size, bytes, m ? *m : builtin_machine(), sharing)) continue;
    const Algorithm* a = o.target;
    if (a && algorithm_fits(*a, args)) return a;
  }
  // Unreachable with a complete registry; fall back to anything that fits.
  for (const Algorithm* a : algorithms_for(args.op))
    if (algorithm_fits(*a, args)) return a;
  std::fprintf(stderr, "hiercoll: no algorithm registered for %s\n", op_name(args.op));
  std::abort();
}

int64_t default_segment_bytes(const Algorithm& a, int64_t bytes, int group_size, const MachineFigures* m) {
  // A pipeline of depth d moving m bytes in segments of s takes about
  // (d + m/s) (alpha + s beta), least at s* = sqrt(m alpha / (d beta))
  // (two-tree paper §1: N = m/s blocks balance N alpha against d beta m/N).
  // The segment is the power of two in [16 KiB, 1 MiB] of least predicted
  // time: the time's part that depends on s, d s beta + m alpha / s, is
  // symmetric in log(s / s*), so it is the first one of at least
  // s* / sqrt(2), i.e. 2 s^2 d >= m alpha / beta.  alpha/beta is the
  // machine's (select/machine.h: the tuning file's figures, else the
  // built-in ones).  Depth: a tree's height, a chain's length.
  // HIERCOLL_SEGMENT_BYTES overrides.
  const int64_t alpha_over_beta = (m ? *m : builtin_machine()).alpha_over_beta_bytes();
  int depth = 1;
  if (std::strcmp(a.name, "chain") == 0) depth = std::max(1, group_size - 1);
  else
    while ((1 << depth) < group_size) ++depth;
  int64_t seg = 16 * 1024;
  while (seg < (1 << 20) && 2 * seg * seg * depth < bytes * alpha_over_beta) seg *= 2;
  return seg;
}

}  // namespace hiercoll
