// The flat rules' ring (select/flat_rules.h ring_pays): MPICH's choices
// on the built-in figures for groups of <= 8 ranks whatever the layout,
// recursive doubling / Bruck where a ring's p-1 latencies dominate, the
// ring where recursive doubling's messages would crowd the nodes' links.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "select/flat_rules.h"
#include "select/machine.h"

namespace hiercoll {
namespace {

constexpr int64_t KiB = 1024, MiB = 1024 * 1024;

// The figures of SIMULATION.md's prediction tables (inter-node alpha,
// bandwidth; inside a node; reduction).
MachineFigures table_figures() { return MachineFigures{1.5, 12.5, 0.3, 20, 10, "SIMULATION.md's tables"}; }

LinkSharing per_node(int ranks, bool consecutive = true) { return LinkSharing{ranks, consecutive}; }

std::string rule(Op op, int p, int64_t bytes, const MachineFigures* m = nullptr, LinkSharing s = LinkSharing{}) {
  CollArgs a;
  a.op = op;
  a.size = p;
  a.count = op == Op::kAllgather ? 1 : bytes;
  return default_algorithm(a, bytes, m, s)->name;
}

std::string allgatherv(int p, int64_t bytes, const MachineFigures* m, LinkSharing s) {
  CollArgs a;
  a.op = Op::kAllgatherv;
  a.size = p;
  a.count = bytes / p;
  a.counts.assign(p, bytes / p);  // even blocks: not skewed
  for (int r = 0; r < p; ++r) a.displs.push_back(r * (bytes / p));
  return default_algorithm(a, bytes, m, s)->name;
}

bool pow2(int p) { return (p & (p - 1)) == 0; }

TEST(FlatRules, MpichChoicesOnSmallGroupsWithBuiltInFiguresOnAnyLayout) {
  for (int p = 1; p <= 8; ++p) {
    for (const LinkSharing s : {LinkSharing{}, per_node(2), per_node(p), per_node(2, false), per_node(p, false)}) {
      for (int64_t bytes : {8 * KiB, 80 * KiB, 100 * KiB, 512 * KiB, 1 * MiB, 16 * MiB, 256 * MiB}) {
        SCOPED_TRACE("p=" + std::to_string(p) + " per node=" + std::to_string(s.ranks_per_node) +
                     (s.consecutive ? "" : " round robin") + " bytes=" + std::to_string(bytes));
        const std::string bcast = p <= 7 || bytes < 12 * KiB ? "binomial"
                                  : bytes < 512 * KiB        ? "scatter_recursive_doubling"
                                                             : "scatter_ring";
        EXPECT_EQ(rule(Op::kBcast, p, bytes, nullptr, s), bcast);
        const std::string allgather = pow2(p) && bytes < 512 * KiB   ? "recursive_doubling"
                                      : !pow2(p) && bytes < 80 * KiB ? "bruck"
                                                                     : "ring";
        EXPECT_EQ(rule(Op::kAllgather, p, bytes, nullptr, s), allgather);
        EXPECT_EQ(allgatherv(p, bytes, nullptr, s), allgather);
      }
    }
  }
}

// The cases below as the model sees them (flat_rules.cc): ring (p-1)(alpha
// + f b beta), b = bytes / p, f = 1 (consecutive ranks) or ranks per node;
// doubling: the sum over d of (alpha + min(d, ranks per node) x min(d, p-d)
// b beta).  The ring unless it is predicted slower by more than 4 alpha
// and more than 15%.

// Gather, scatter, alltoall and reduce_scatter take MPICH's choices on any
// group (flat_rules.cc).
std::string vector_rule(Op op, int p, int64_t block, bool commutative = true) {
  CollArgs a;
  a.op = op;
  a.size = p;
  a.count = block;
  a.commutative = commutative;
  if (op == Op::kReduceScatter) a.counts.assign(p, block);
  // A scatter's or alltoall's unit is its block, a reduce_scatter's a byte.
  return default_algorithm(a, selection_bytes(op, op == Op::kReduceScatter ? 1 : block, a), nullptr, LinkSharing{})
      ->name;
}

TEST(FlatRules, GatherScatterAlltoallAndReduceScatterAsMpich) {
  for (int p : {2, 3, 5, 8, 9, 64}) {
    SCOPED_TRACE("p=" + std::to_string(p));
    for (int64_t block : {int64_t{8}, 1 * KiB, 64 * KiB, 1 * MiB}) {
      EXPECT_EQ(vector_rule(Op::kScatter, p, block), "binomial") << block;
      EXPECT_EQ(vector_rule(Op::kGather, p, block), "binomial") << block;
    }
    // Bruck for blocks up to 256 bytes on 8 ranks or more, scattered
    // isend/irecv below 32 KiB, pairwise exchange above (§4.5).
    EXPECT_EQ(vector_rule(Op::kAlltoall, p, 64), p <= 7 ? "scattered" : "bruck");
    EXPECT_EQ(vector_rule(Op::kAlltoall, p, 16 * KiB), "scattered");
    EXPECT_EQ(vector_rule(Op::kAlltoall, p, 32 * KiB), "pairwise");
    EXPECT_EQ(vector_rule(Op::kAlltoall, p, 512 * KiB), "pairwise");
    // Reduce_scatter by its total bytes: halving below 512 KiB in all;
    // non-commutative operations never halve and take recursive doubling
    // only below 512 bytes (MPICH paper §4.4).
    EXPECT_EQ(vector_rule(Op::kReduceScatter, p, 64 * KiB / p), "recursive_halving");
    EXPECT_EQ(vector_rule(Op::kReduceScatter, p, 1 * MiB / p), "pairwise");
    EXPECT_EQ(vector_rule(Op::kReduceScatter, p, (2 * MiB + p - 1) / p), "pairwise");
    EXPECT_EQ(vector_rule(Op::kReduceScatter, p, 256 / p, false), "recursive_doubling");
    EXPECT_EQ(vector_rule(Op::kReduceScatter, p, 511 / p, false), "recursive_doubling");
    EXPECT_EQ(vector_rule(Op::kReduceScatter, p, (512 + p - 1) / p, false), "pairwise");
    EXPECT_EQ(vector_rule(Op::kReduceScatter, p, 64 * KiB / p, false), "pairwise");
    EXPECT_EQ(vector_rule(Op::kReduceScatter, p, 1 * MiB / p, false), "pairwise");
  }
}

TEST(FlatRules, OneRankPerNodeTheRingPaysOnlyItsLatencyWithTableFigures) {
  const MachineFigures m = table_figures();
  EXPECT_EQ(rule(Op::kBcast, 8, 1 * MiB, &m), "scatter_ring");                     // 84 us vs 78
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB, &m), "scatter_recursive_doubling");      // 177 vs 92
  EXPECT_EQ(rule(Op::kBcast, 1024, 1 * MiB, &m), "scatter_recursive_doubling");    // 1618 vs 99
  EXPECT_EQ(rule(Op::kBcast, 1024, 64 * MiB, &m), "scatter_recursive_doubling");   // 6898 vs 5378
  EXPECT_EQ(rule(Op::kBcast, 1024, 1024 * MiB, &m), "scatter_ring");               // 87350 vs 85830
  EXPECT_EQ(rule(Op::kBcast, 1000, 1 * MiB, &m), "scatter_recursive_doubling");    // any group size
  EXPECT_EQ(rule(Op::kAllgather, 8, 1 * MiB, &m), "ring");
  EXPECT_EQ(rule(Op::kAllgather, 1024, 1 * MiB, &m), "recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 1000, 1 * MiB, &m), "bruck");  // not a power of two
  EXPECT_EQ(rule(Op::kAllgather, 65536, 64 * MiB, &m), "recursive_doubling");  // 103671 vs 5393
}

TEST(FlatRules, RanksSharingALinkFavourTheRingWithTableFigures) {
  const MachineFigures m = table_figures();
  // 4x16 and 64x16: 16 of recursive doubling's messages share a link in
  // its last steps.
  EXPECT_EQ(rule(Op::kBcast, 64, 512 * KiB, &m, per_node(16)), "scatter_ring");    // 136 vs 568
  EXPECT_EQ(rule(Op::kBcast, 1024, 16 * MiB, &m, per_node(16)), "scatter_ring");   // 2875 vs 21266
  EXPECT_EQ(rule(Op::kBcast, 1024, 1 * MiB, &m, per_node(16)), "scatter_recursive_doubling");  // 1618 vs 1343
  EXPECT_EQ(rule(Op::kAllgather, 1024, 1 * MiB, &m, per_node(16)), "recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 1024, 16 * MiB, &m, per_node(16)), "ring");
  // 1024x64: 65535 latencies still dominate up to 16 MiB, not 64 MiB.
  EXPECT_EQ(rule(Op::kBcast, 65536, 1 * MiB, &m, per_node(64)), "scatter_recursive_doubling");   // 98386 vs 5389
  EXPECT_EQ(rule(Op::kBcast, 65536, 16 * MiB, &m, per_node(64)), "scatter_recursive_doubling");  // 99645 vs 85867
  EXPECT_EQ(rule(Op::kBcast, 65536, 64 * MiB, &m, per_node(64)), "scatter_ring");  // 103671 vs 343398
  // Round-robin ranks: the ring's neighbours are on other nodes, all 16
  // ranks of a node send across its link in both, and the ring's latency
  // counts again.
  EXPECT_EQ(rule(Op::kBcast, 1024, 16 * MiB, &m, per_node(16, false)), "scatter_ring");  // 22988 vs 21469
  EXPECT_EQ(rule(Op::kBcast, 1024, 4 * MiB, &m, per_node(16, false)), "scatter_recursive_doubling");
}

TEST(FlatRules, BuiltInFiguresOnLargeGroups) {
  // 83 us, 3.2 GB/s.  One rank per node:
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB), "scatter_recursive_doubling");     // 5552 us vs 821
  EXPECT_EQ(rule(Op::kBcast, 64, 16 * MiB), "scatter_recursive_doubling");    // 10390 vs 5659
  EXPECT_EQ(rule(Op::kBcast, 1024, 16 * MiB), "scatter_recursive_doubling");  // 90147 vs 6068
  EXPECT_EQ(rule(Op::kAllgather, 63, 1 * MiB), "bruck");
  EXPECT_EQ(rule(Op::kAllgather, 1024, 64 * MiB), "recursive_doubling");  // 105860 vs 21781
  // 64x16 (the regression of the latency-only rule: flat bcast of 16 MiB
  // on 64x16 took recursive doubling, 5.3x slower in the simulator):
  const LinkSharing n16 = per_node(16);
  EXPECT_EQ(rule(Op::kBcast, 1024, 1 * MiB, nullptr, n16), "scatter_recursive_doubling");  // 85236 vs 6018
  EXPECT_EQ(rule(Op::kBcast, 1024, 16 * MiB, nullptr, n16), "scatter_ring");               // 90147 vs 83841
  EXPECT_EQ(rule(Op::kAllgather, 1024, 1 * MiB, nullptr, n16), "recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 1024, 64 * MiB, nullptr, n16), "ring");
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB, nullptr, n16), "scatter_ring");  // 5552 vs 4865
  // 1024x64: 65535 latencies of 83 us (5.4 s) lose up to 64 MiB.
  const LinkSharing n64 = per_node(64);
  EXPECT_EQ(rule(Op::kBcast, 65536, 16 * MiB, nullptr, n64), "scatter_recursive_doubling");  // vs 337 ms
  EXPECT_EQ(rule(Op::kAllgather, 65536, 64 * MiB, nullptr, n64), "recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 65536, int64_t(4096) * MiB, nullptr, n64), "ring");  // 6.8 s vs 86 s
}

TEST(FlatRules, PhasesInsideANodeAreJudgedByTheNodesFigures) {
  // 64 ranks, 1 MiB: 57 extra latencies are 4.7 ms between emulated nodes,
  // 17 us inside one (0.3 us, 5 GB/s).
  const MachineFigures node = inside_node(builtin_machine());
  EXPECT_EQ(node.inter_latency_us, builtin_machine().intra_latency_us);
  EXPECT_EQ(node.inter_bandwidth_gbps, builtin_machine().intra_bandwidth_gbps);
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB, &node), "scatter_ring");
  EXPECT_EQ(rule(Op::kAllgather, 64, 1 * MiB, &node), "ring");
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB), "scatter_recursive_doubling");
}

TEST(FlatRules, RingSlackBoundsAreExact) {
  const MachineFigures& b = builtin_machine();
  // One rank per node: the ring pays (p-1) - ceil(lg p) more latencies for
  // the same bytes; up to 4 (9 ranks) always granted.
  EXPECT_TRUE(ring_pays(8, 1, b, LinkSharing{}));
  EXPECT_TRUE(ring_pays(9, 1, b, LinkSharing{}));
  EXPECT_FALSE(ring_pays(10, 80 * KiB, b, LinkSharing{}));
  EXPECT_TRUE(ring_pays(2, 1, b, LinkSharing{}));  // a ring of two is recursive doubling
  // 10 ranks: 5 latencies (415 us) are within 15% of recursive doubling's
  // 4 alpha + 9/10 bytes beta from 8656592.6 bytes.
  EXPECT_TRUE(ring_pays(10, 8656593, b, LinkSharing{}));
  EXPECT_FALSE(ring_pays(10, 8656592, b, LinkSharing{}));
  // More ranks per node than the group has count as the group's size.
  EXPECT_EQ(ring_pays(64, 1 * MiB, b, per_node(64)), ring_pays(64, 1 * MiB, b, per_node(1000)));
}

// A rule is shadowed when an earlier rule of its operation applies
// wherever it does: to at least its bytes and group sizes, with no flag it
// lacks, and with an algorithm restricted no further (an earlier rule whose
// algorithm is pow2-only still covers a pow2_groups rule).  The limits are
// upper bounds and the flags only narrow, so a union of earlier rules
// covers a rule only where one of them does (each misses the rule's corner
// of largest bytes and group, without the flags it does not ask for).
bool covers(const FlatRule& earlier, const FlatRule& later) {
  if (earlier.op != later.op) return false;
  if (earlier.below_bytes < later.below_bytes || earlier.max_p < later.max_p) return false;
  if ((earlier.pow2_groups && !later.pow2_groups) || (earlier.skewed_only && !later.skewed_only) ||
      (earlier.ring && !later.ring))
    return false;
  const Algorithm* e = find_algorithm(earlier.op, earlier.algorithm);
  const Algorithm* l = find_algorithm(later.op, later.algorithm);
  if (!e || !l) return false;
  uint32_t extra = e->restrictions & ~l->restrictions;
  if (later.pow2_groups) extra &= ~uint32_t{kPow2Only};
  return extra == 0;
}

TEST(FlatRules, EveryRuleNamesAnAlgorithmAndNoneIsShadowed) {
  const std::vector<FlatRule> rules = flat_rule_table();
  ASSERT_FALSE(rules.empty());
  for (size_t j = 0; j < rules.size(); ++j) {
    SCOPED_TRACE("rule " + std::to_string(j) + " " + op_name(rules[j].op) + " " + rules[j].algorithm);
    EXPECT_NE(find_algorithm(rules[j].op, rules[j].algorithm), nullptr);
    for (size_t i = 0; i < j; ++i) EXPECT_FALSE(covers(rules[i], rules[j])) << "shadowed by rule " << i;
  }
  // Every operation ends in an unrestricted rule (default_algorithm's
  // promise: never null).
  for (int op = 0; op < kNumOps; ++op) {
    const FlatRule* last = nullptr;
    for (const FlatRule& r : rules)
      if (static_cast<int>(r.op) == op) last = &r;
    if (!last) continue;
    SCOPED_TRACE(op_name(last->op));
    EXPECT_EQ(last->below_bytes, std::numeric_limits<int64_t>::max());
    EXPECT_EQ(last->max_p, std::numeric_limits<int>::max());
    EXPECT_FALSE(last->pow2_groups || last->skewed_only || last->ring);
  }
}

// Non-commutative reductions choose as commutative ones wherever the
// algorithm keeps rank order (reduce, allreduce).
TEST(FlatRules, NonCommutativeReduceAndAllreduceChooseAlike) {
  for (int p : {2, 3, 8, 64}) {
    for (int64_t bytes : {int64_t{8}, 2 * KiB, 2 * KiB + 1, 1 * MiB}) {
      SCOPED_TRACE("p=" + std::to_string(p) + " bytes=" + std::to_string(bytes));
      for (Op op : {Op::kReduce, Op::kAllreduce}) {
        CollArgs a;
        a.op = op;
        a.size = p;
        a.count = bytes;
        const std::string commutative = default_algorithm(a, bytes)->name;
        a.commutative = false;
        EXPECT_EQ(default_algorithm(a, bytes)->name, commutative);
        EXPECT_EQ(commutative, bytes <= 2 * KiB ? (op == Op::kReduce ? "binomial" : "recursive_doubling")
                                                : "rabenseifner");
      }
    }
  }
}

// The default segment against the two-tree paper's optimum
// s* = sqrt(m alpha / (d beta)) of (d + m/s)(alpha + s beta): the power of
// two in [16 KiB, 1 MiB] of least predicted time, within a factor sqrt(2)
// of s* where s* is inside the range.
TEST(FlatRules, DefaultSegmentIsThePipelineOptimumToAPowerOfTwo) {
  const MachineFigures figures[] = {builtin_machine(), table_figures(),
                                    MachineFigures{10, 1, 0.3, 20, 10, "10 us, 1 GB/s"}};
  struct Pipeline {
    const char* algorithm;
    int p;
    int depth;  // a chain's length, a tree's height
  };
  const Pipeline pipelines[] = {{"chain", 2, 1}, {"chain", 17, 16}, {"pipelined_binary_tree", 8, 3},
                                {"pipelined_binary_tree", 64, 6}, {"twotree", 1000, 10}};
  for (const MachineFigures& f : figures) {
    const double alpha = f.inter_latency_us, beta = 1 / (f.inter_bandwidth_gbps * 1e3);  // us, us per byte
    for (const Pipeline& pl : pipelines) {
      const Algorithm* a = find_algorithm(Op::kBcast, pl.algorithm);
      ASSERT_NE(a, nullptr) << pl.algorithm;
      for (int64_t bytes : {64 * KiB, 1 * MiB, 16 * MiB, 256 * MiB}) {
        SCOPED_TRACE(std::string(f.source) + " " + pl.algorithm + " p=" + std::to_string(pl.p) +
                     " bytes=" + std::to_string(bytes));
        const int64_t seg = default_segment_bytes(*a, bytes, pl.p, &f);
        auto time = [&](double s) { return (pl.depth + bytes / s) * (alpha + s * beta); };
        for (int64_t s = 16 * KiB; s <= 1 * MiB; s *= 2) EXPECT_LE(time(seg), time(s) * (1 + 1e-12)) << s;
        const double best = std::sqrt(bytes * static_cast<double>(f.alpha_over_beta_bytes()) / pl.depth);
        if (best >= 16 * KiB * std::sqrt(2.0) && best <= 1 * MiB / std::sqrt(2.0)) {
          EXPECT_GE(seg, best / std::sqrt(2.0));
          EXPECT_LT(seg, best * std::sqrt(2.0));
        }
      }
    }
  }
  // Built-in figures (83 us, 3.2 GB/s: alpha/beta 265600 bytes): a tree of
  // 64 ranks (height 6) at 16 MiB has s* = 861800 bytes, so 1 MiB (512 KiB
  // would be half the optimum); one hop at 1 MiB has s* = 527734: 512 KiB;
  // a chain of 17 at 64 KiB has s* = 32983: 32 KiB.
  const Algorithm* tree = find_algorithm(Op::kBcast, "pipelined_binary_tree");
  const Algorithm* chain = find_algorithm(Op::kBcast, "chain");
  EXPECT_EQ(default_segment_bytes(*tree, 16 * MiB, 64), 1 * MiB);
  EXPECT_EQ(default_segment_bytes(*chain, 1 * MiB, 2), 512 * KiB);
  EXPECT_EQ(default_segment_bytes(*chain, 64 * KiB, 17), 32 * KiB);  // s* = 32983
}

}  // namespace
}  // namespace hiercoll
