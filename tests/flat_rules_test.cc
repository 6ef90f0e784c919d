// The flat rules' latency-aware ring (select/flat_rules.h): MPICH's choices
// on the built-in figures for groups of <= 8 ranks, recursive doubling /
// Bruck where a ring's p-1 latencies would dominate.
#include <gtest/gtest.h>

#include <string>

#include "select/flat_rules.h"
#include "select/machine.h"

namespace hiercoll {
namespace {

constexpr int64_t KiB = 1024, MiB = 1024 * 1024;

// The figures of SIMULATION.md's prediction tables (inter-node alpha,
// bandwidth; inside a node; reduction).
MachineFigures table_figures() { return MachineFigures{1.5, 12.5, 0.3, 20, 10, "SIMULATION.md's tables"}; }

std::string rule(Op op, int p, int64_t bytes, const MachineFigures* m = nullptr) {
  CollArgs a;
  a.op = op;
  a.size = p;
  a.count = op == Op::kAllgather ? 1 : bytes;
  return default_algorithm(a, bytes, m)->name;
}

bool pow2(int p) { return (p & (p - 1)) == 0; }

TEST(FlatRules, MpichChoicesOnSmallGroupsWithBuiltInFigures) {
  for (int p = 1; p <= 8; ++p) {
    for (int64_t bytes : {8 * KiB, 80 * KiB, 100 * KiB, 512 * KiB, 1 * MiB, 16 * MiB, 256 * MiB}) {
      SCOPED_TRACE("p=" + std::to_string(p) + " bytes=" + std::to_string(bytes));
      const std::string bcast = p <= 7 || bytes < 12 * KiB ? "binomial"
                                : bytes < 512 * KiB        ? "scatter_recursive_doubling"
                                                           : "scatter_ring";
      EXPECT_EQ(rule(Op::kBcast, p, bytes), bcast);
      const std::string allgather = pow2(p) && bytes < 512 * KiB ? "recursive_doubling"
                                    : !pow2(p) && bytes < 80 * KiB ? "bruck"
                                                                   : "ring";
      EXPECT_EQ(rule(Op::kAllgather, p, bytes), allgather);
    }
  }
}

TEST(FlatRules, RingOnlyWhereItsLatencyIsAffordableWithTableFigures) {
  const MachineFigures m = table_figures();
  // Extra latency (p-1 - lg p) x 1.5 us against 10x the transfer at 12.5 GB/s.
  EXPECT_EQ(rule(Op::kBcast, 8, 1 * MiB, &m), "scatter_ring");        // 6 us vs 839
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB, &m), "scatter_ring");       // 86 us vs 839
  EXPECT_EQ(rule(Op::kBcast, 1024, 1 * MiB, &m), "scatter_recursive_doubling");  // 1520 vs 839
  EXPECT_EQ(rule(Op::kBcast, 1024, 16 * MiB, &m), "scatter_ring");    // 1520 vs 13422
  EXPECT_EQ(rule(Op::kBcast, 65536, 16 * MiB, &m), "scatter_recursive_doubling");  // 98278 vs 13422
  EXPECT_EQ(rule(Op::kBcast, 1000, 1 * MiB, &m), "scatter_recursive_doubling");  // any group size
  EXPECT_EQ(rule(Op::kAllgather, 8, 1 * MiB, &m), "ring");
  EXPECT_EQ(rule(Op::kAllgather, 64, 1 * MiB, &m), "ring");
  EXPECT_EQ(rule(Op::kAllgather, 1024, 1 * MiB, &m), "recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 1000, 1 * MiB, &m), "bruck");  // not a power of two
  EXPECT_EQ(rule(Op::kAllgather, 1024, 64 * MiB, &m), "ring");
  EXPECT_EQ(rule(Op::kAllgather, 65536, 512 * KiB, &m), "recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 65536, 64 * MiB, &m), "recursive_doubling");
}

TEST(FlatRules, RingOnlyWhereItsLatencyIsAffordableWithBuiltInFigures) {
  // 83 us, 3.2 GB/s: 10x the transfer of 1 MiB is 3.3 ms, of 16 MiB 52 ms.
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB), "scatter_recursive_doubling");    // 4.7 ms
  EXPECT_EQ(rule(Op::kBcast, 64, 16 * MiB), "scatter_ring");
  EXPECT_EQ(rule(Op::kBcast, 1024, 16 * MiB), "scatter_recursive_doubling");  // 84 ms
  EXPECT_EQ(rule(Op::kBcast, 65536, 16 * MiB), "scatter_recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 64, 1 * MiB), "recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 63, 1 * MiB), "bruck");
  EXPECT_EQ(rule(Op::kAllgather, 64, 16 * MiB), "ring");
  EXPECT_EQ(rule(Op::kAllgather, 1024, 1 * MiB), "recursive_doubling");
  EXPECT_EQ(rule(Op::kAllgather, 1024, 64 * MiB), "ring");  // 84 ms vs 210
}

TEST(FlatRules, PhasesInsideANodeAreJudgedByTheNodesFigures) {
  // 64 ranks, 1 MiB: 57 extra latencies are 4.7 ms between emulated nodes,
  // 17 us inside one (0.3 us, 5 GB/s: 10x the transfer is 2.1 ms).
  const MachineFigures node = inside_node(builtin_machine());
  EXPECT_EQ(node.inter_latency_us, builtin_machine().intra_latency_us);
  EXPECT_EQ(node.inter_bandwidth_gbps, builtin_machine().intra_bandwidth_gbps);
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB, &node), "scatter_ring");
  EXPECT_EQ(rule(Op::kAllgather, 64, 1 * MiB, &node), "ring");
  EXPECT_EQ(rule(Op::kBcast, 64, 1 * MiB), "scatter_recursive_doubling");
}

TEST(FlatRules, RingLatencyBoundIsInclusiveAndExact) {
  const MachineFigures& b = builtin_machine();
  // 7 ranks: 3 extra latencies (249 us) against 25.6 us of transfer at 80 KiB.
  EXPECT_TRUE(ring_latency_affordable(7, 80 * KiB, b));
  EXPECT_FALSE(ring_latency_affordable(9, 80 * KiB, b));  // 4 extra: 332 us
  EXPECT_TRUE(ring_latency_affordable(2, 1, b));          // a ring of two is recursive doubling
  // 4 ranks: one extra latency, 83 us, against 10 x 8.3 us at 26560 bytes.
  EXPECT_TRUE(ring_latency_affordable(4, 26600, b));
  EXPECT_FALSE(ring_latency_affordable(4, 26500, b));
}

}  // namespace
}  // namespace hiercoll
