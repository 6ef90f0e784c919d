// The simulator against the papers' closed forms, one rank per node (so
// every message crosses the network and no link is shared): Thakur,
// Rabenseifner, Gropp (MPICH) for bcast, reduce and allreduce, Sanders, Speck,
// Träff (two-tree paper) for the pipelined chain and binary tree and the
// two-tree bcast.  m is the message, N the number of segments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "algorithms/registry.h"
#include "sim/engine.h"
#include "tests/support/sanitize_mode.h"

namespace hiercoll {
namespace {

// alpha 10 us, beta 1 ns/byte, gamma 2 ns/byte: latency and bandwidth
// terms of similar weight at m = 1 MiB, so either one being off shows.
CostModel model() {
  CostModel m;
  m.alpha_us = 10;
  m.bandwidth_gbps = 1;
  m.reduce_gbps = 0.5;
  return m;
}

const double kM = 1 << 20;  // bytes
const double kA = model().alpha_us, kB = model().beta(), kG = model().gamma();

// The schedule with each receive after the one listed before it: a rank
// takes its messages in the schedule's order, as the papers' one-ported
// schedules prescribe, instead of whichever is ready first.
Schedule receives_in_order(Schedule s) {
  std::vector<int32_t> deps;
  int32_t last_recv = -1;
  for (size_t i = 0; i < s.steps.size(); ++i) {
    Step& st = s.steps[i];
    const uint32_t begin = static_cast<uint32_t>(deps.size());
    deps.insert(deps.end(), s.deps.begin() + st.dep_begin, s.deps.begin() + st.dep_begin + st.dep_count);
    if (st.kind == StepKind::kRecv) {
      if (last_recv >= 0) deps.push_back(last_recv);
      last_recv = static_cast<int32_t>(i);
    }
    st.dep_begin = begin;
    st.dep_count = static_cast<uint32_t>(deps.size()) - begin;
  }
  s.deps = std::move(deps);
  s.finalize();
  return s;
}

// Simulates flat algorithm `name` of op on p ranks, one per node, under
// cost model m (with ordered_receives, receives_in_order).
SimResult simulate_model(Op op, const char* name, int p, int64_t count, int64_t unit_bytes, int64_t seg_units,
                         const CostModel& m, bool ordered_receives = false) {
  const Algorithm* alg = find_algorithm(op, name);
  EXPECT_NE(alg, nullptr) << name;
  std::vector<Schedule> scheds;
  for (int r = 0; r < p; ++r) {
    CollArgs a;
    a.op = op;
    a.rank = r;
    a.size = p;
    a.count = count;
    a.seg_units = seg_units;
    scheds.push_back(build_schedule(*alg, a));
    if (ordered_receives) scheds.back() = receives_in_order(std::move(scheds.back()));
  }
  std::vector<int> node_of(p);
  std::iota(node_of.begin(), node_of.end(), 0);
  SimResult res;
  std::string error;
  const CompactSchedules compact = CompactSchedules::of(scheds);
  EXPECT_TRUE(simulate(SimInput{&compact, &node_of, unit_bytes}, m, &res, &error)) << error;
  // The shares are floats (sim/engine_state.h), summed once per step on the
  // path: thousands of steps drift by a few parts in a million.
  EXPECT_NEAR(res.critical.total(), res.time_us, 1e-5 * res.time_us);
  return res;
}

// The same under model(), reductions free or not.
SimResult simulate_flat(Op op, const char* name, int p, int64_t count, int64_t unit_bytes, int64_t seg_units = 0,
                        bool free_reduce = false, bool latency_overlaps = false, bool ordered_receives = false) {
  CostModel m = model();
  if (free_reduce) m.reduce_gbps = 1e12;
  m.latency_overlaps = latency_overlaps;
  return simulate_model(op, name, p, count, unit_bytes, seg_units, m, ordered_receives);
}

double bcast_us(const char* name, int p, int64_t seg_bytes = 0) {
  return simulate_flat(Op::kBcast, name, p, static_cast<int64_t>(kM), 1, seg_bytes).time_us;
}
double allreduce_us(const char* name, int p) {
  return simulate_flat(Op::kAllreduce, name, p, static_cast<int64_t>(kM) / 4, 4).time_us;
}

#define EXPECT_WITHIN_2PCT(sim, formula) EXPECT_NEAR(sim, formula, 0.02 * (formula)) << "p=" << p

// LogP's view (CostModel::latency_overlaps): the root's port is free once
// a message's bytes are out, so the linear bcast's last message arrives
// after (p-1) m beta + alpha instead of (p-1)(alpha + m beta); the papers'
// model is the default.
TEST(SimClosedForm, LinearBcastWithOverlappingLatency) {
  for (int p : {2, 5, 16}) {
    const double overlapped =
        simulate_flat(Op::kBcast, "linear", p, static_cast<int64_t>(kM), 1, static_cast<int64_t>(kM), false, true)
            .time_us;  // one segment
    EXPECT_WITHIN_2PCT(overlapped, (p - 1) * kM * kB + kA);
    EXPECT_WITHIN_2PCT(bcast_us("linear", p, static_cast<int64_t>(kM)), (p - 1) * (kA + kM * kB));
  }
}

TEST(SimClosedForm, BinomialBcast) {
  for (int p : {2, 3, 5, 8, 13, 32, 100}) {
    const double lg = std::ceil(std::log2(p));
    EXPECT_WITHIN_2PCT(bcast_us("binomial", p), lg * (kA + kM * kB));
  }
}

TEST(SimClosedForm, ScatterAllgatherBcastPowerOfTwo) {
  for (int p : {2, 4, 16, 64}) {
    const double lg = std::log2(p);
    EXPECT_WITHIN_2PCT(bcast_us("scatter_recursive_doubling", p), 2 * lg * kA + 2.0 * (p - 1) / p * kM * kB);
    // With the ring allgather (MPICH's long-message bcast): lg p + p - 1 latencies.
    EXPECT_WITHIN_2PCT(bcast_us("scatter_ring", p), (lg + p - 1) * kA + 2.0 * (p - 1) / p * kM * kB);
  }
}

TEST(SimClosedForm, RecursiveDoublingAllreduce) {
  for (int p : {2, 4, 16, 64}) {
    const double lg = std::log2(p);
    EXPECT_WITHIN_2PCT(allreduce_us("recursive_doubling", p), lg * (kA + kM * kB + kM * kG));
  }
}

TEST(SimClosedForm, RabenseifnerAllreduce) {
  for (int p : {2, 4, 16, 64}) {
    const double lg = std::log2(p);
    const double f = (p - 1.0) / p;
    EXPECT_WITHIN_2PCT(allreduce_us("rabenseifner", p), 2 * lg * kA + 2 * f * kM * kB + f * kM * kG);
  }
}

// The ring algorithms' checks (§5.3): the paper's form `full` (its
// communication part `comm` plus (1 - 1/p) m gamma) within 2% for p up to
// exact_up_to, never exceeded, and its communication terms exact for any p
// when reducing is free.
void expect_ring(Op op, int exact_up_to) {
  for (int p : {2, 3, 4, 7, 16, 50}) {
    const int64_t count = int64_t(p) * 65536;  // even blocks
    const double m = 4.0 * count, f = (p - 1.0) / p;
    const double comm = 2 * (p - 1) * kA + 2 * f * m * kB;
    const double full = comm + f * m * kG;
    const double sim = simulate_flat(op, "ring", p, count, 4).time_us;
    if (p <= exact_up_to) {
      EXPECT_WITHIN_2PCT(sim, full);
    }
    EXPECT_LE(sim, full * 1.000001) << "p=" << p;
    EXPECT_GE(sim, std::max(comm, f * m * kG)) << "p=" << p;
    EXPECT_WITHIN_2PCT(simulate_flat(op, "ring", p, count, 4, 0, /*free_reduce=*/true).time_us, comm);
  }
}

// Ring (pairwise-exchange reduce-scatter, ring allgather).  The formula
// charges every step's reduction after its receive; hiercoll's schedule
// sends from the input, so receives overlap earlier reductions and from
// p = 4 on it beats the formula.  Exact for p <= 3 (blocks even), and its
// communication terms are exact for any p when reducing is free.
TEST(SimClosedForm, RingAllreduce) { expect_ring(Op::kAllreduce, 3); }

// Where the ring allreduce's reductions go.  §5.3's form charges each of
// the p - 1 reduce-scatter steps its reduction before the next step, as
// MPICH's loop (MPI_Sendrecv, then the local reduction) runs them.
// hiercoll's pairwise exchange (§4.4, reduce_scatter_pairwise_blocks)
// sends each step from the input, so the next receive runs while the
// reduction unit combines the last one.  Contributions come from me - 1
// down to 0, then from p - 1 down to me + 1; for rank order the higher
// ones gather in a second accumulator (the first of them needs no
// reduction), combined with the first at the end.  With blocks b = m/p
// and a step alpha + b beta, the reduce-scatter ends at max((p-1) step +
// 2 b gamma, 2 step + (p-1) b gamma): the last receive, its reduction and
// the final combination (reducing faster than the link), or, at rank 0,
// whose first reduction waits for its second receive, p - 1 reductions in
// a row (slower); the ring allgather adds (p-1) step.  The issue's
// figures (p = 1024, 1 MiB, alpha 10 us, 1 GB/s, reducing 2 GB/s): 22,556
// us against the form's 23,079, exactly this; nothing is left out of the
// critical path: the (p-3) b gamma the form adds run under receives.
TEST(SimClosedForm, RingAllreduceOverlapsReductions) {
  auto overlapped = [](int p, double m, const CostModel& cm) {
    const double b = m / p, step = cm.alpha_us + b * cm.beta();
    return (p - 1) * step + std::max((p - 1) * step + 2 * b * cm.gamma(), 2 * step + (p - 1) * b * cm.gamma());
  };
  CostModel issue;
  issue.alpha_us = 10;
  issue.bandwidth_gbps = 1;
  issue.reduce_gbps = 2;
  // 2 x 10^6 steps: minutes under the sanitizers, which the smaller
  // groups below cover.
  if (!testing::sanitize_mode()) {
    const int p = 1024;
    const double sim = simulate_model(Op::kAllreduce, "ring", p, int64_t(kM) / 4, 4, 0, issue).time_us;
    const double f = (p - 1.0) / p;
    const double paper = 2 * (p - 1) * kA + 2 * f * kM * issue.beta() + f * kM * issue.gamma();
    EXPECT_NEAR(paper, 23079, 1);
    EXPECT_NEAR(sim, 22556, 1);
    EXPECT_NEAR(sim, overlapped(p, kM, issue), 1e-6 * sim);
  }
  for (int p : {4, 7, 16, 50}) {
    const int64_t count = int64_t(p) * 65536;
    EXPECT_NEAR(simulate_flat(Op::kAllreduce, "ring", p, count, 4).time_us, overlapped(p, 4.0 * count, model()),
                1e-6 * overlapped(p, 4.0 * count, model()))
        << "p=" << p;
    EXPECT_NEAR(simulate_model(Op::kAllreduce, "ring", p, count, 4, 0, issue).time_us,
                overlapped(p, 4.0 * count, issue), 1e-6 * overlapped(p, 4.0 * count, issue))
        << "p=" << p;
  }
}

double reduce_us(const char* name, int p, int64_t count, bool free_reduce = false) {
  return simulate_flat(Op::kReduce, name, p, count, 4, 0, free_reduce).time_us;
}

// Binary-blocks reduce (§5.2; the paper gives no cost, so this one is
// derived from the schedule): the largest block, p0 = 2^floor(lg p), runs
// §5.1's reduce-scatter, lg p0 alpha + (1 - 1/p0) m (beta + gamma); each
// of its members then receives its piece of the smaller blocks' sum,
// alpha + m/p0 beta, and reduces it, m/p0 gamma; a binomial gather to the
// root (rank 0 here) follows, lg p0 alpha + (1 - 1/p0) m beta.  Serially
// that is (2 lg p0 + 1) alpha + (2 - 1/p0) m beta + m gamma, which the
// simulator matches exactly when reducing is free (each member's receive
// port is busy throughout).  With gamma the extra receive has no
// predecessor, so it overlaps the last reduce-scatter step's reduction
// (m/p0 gamma >= alpha + m/p0 beta here) and only the extra reduction
// counts: 2 lg p0 alpha + 2(1 - 1/p0) m beta + m gamma.  A power of two
// has no smaller block and is §5.1's reduce: 2 lg p alpha + 2(1 - 1/p)
// m beta + (1 - 1/p) m gamma.  The non-powers of two are 3 * 2^k, two
// blocks of ratio 2, whose smaller block's pieces arrive in time; with a
// larger ratio or more blocks (5, 7, 13) the smaller blocks' chain of
// messages is on the critical path (the paper's delta_expo,max) and the
// form is only a lower bound.
TEST(SimClosedForm, BinaryBlocksReduce) {
  const int64_t count = static_cast<int64_t>(kM) / 4;
  for (int p : {2, 8, 64}) {
    const double lg = std::log2(p), f = (p - 1.0) / p;
    EXPECT_WITHIN_2PCT(reduce_us("binary_blocks", p, count), 2 * lg * kA + 2 * f * kM * kB + f * kM * kG);
  }
  // The largest block's §5.1 reduce plus the one reduction of the smaller
  // blocks' piece.
  auto with_smaller_blocks = [](int p) {
    const int p0 = 1 << static_cast<int>(std::floor(std::log2(p)));
    return 2 * std::log2(p0) * kA + 2 * (p0 - 1.0) / p0 * kM * kB + kM * kG;
  };
  for (int p : {6, 12, 48}) {
    const int p0 = 1 << static_cast<int>(std::floor(std::log2(p)));
    EXPECT_WITHIN_2PCT(reduce_us("binary_blocks", p, count), with_smaller_blocks(p));
    EXPECT_WITHIN_2PCT(reduce_us("binary_blocks", p, count, /*free_reduce=*/true),
                       (2 * std::log2(p0) + 1) * kA + (2 - 1.0 / p0) * kM * kB);
  }
  for (int p : {5, 7, 13}) EXPECT_GE(reduce_us("binary_blocks", p, count), with_smaller_blocks(p)) << "p=" << p;
}

// Ring reduce (§5.3): T = (p-1)(alpha + alpha_uni) + m(beta + beta_uni) +
// m gamma - (m(beta + beta_uni) + m gamma)/p, where a one-way message costs
// what an exchange does (alpha_uni = alpha, beta_uni = beta: the simulator
// is full duplex).  As for the ring allreduce, the formula charges every
// reduction before the next step, while hiercoll's reduce-scatter sends
// from the input (receives overlap earlier reductions) and the root takes
// the first results while it still reduces its own: exact at p = 2, below
// the formula from p = 3 on, and its communication terms exact for any p
// when reducing is free.
TEST(SimClosedForm, RingReduce) { expect_ring(Op::kReduce, 2); }

// Linear pipeline: the last of p ranks gets block N after p - 1 + N - 1
// steps of alpha + beta m / N.
TEST(SimClosedForm, PipelinedChainBcast) {
  for (int p : {2, 5, 16}) {
    for (int N : {1, 8, 64}) {
      const double step = kA + kM / N * kB;
      EXPECT_WITHIN_2PCT(bcast_us("chain", p, static_cast<int64_t>(kM) / N), (p + N - 2) * step) << " N=" << N;
    }
  }
}

// Pipelined binary tree (two-tree paper, Sect. 2): 2(h + N - 1) steps of
// alpha + beta m / N, h the tree's height in edges (p = 2^(h+1) - 1).  (The
// paper's "rightmost leaf receives at step 2h" counts h as levels: its p =
// 2^h - 1 tree needs 2(h - 1) steps, as here.)
TEST(SimClosedForm, PipelinedBinaryTreeBcast) {
  for (int p : {7, 15, 31, 63}) {
    const int h = static_cast<int>(std::log2(p + 1)) - 1;
    for (int N : {1, 8, 64}) {
      const double step = kA + kM / N * kB;
      EXPECT_WITHIN_2PCT(bcast_us("pipelined_binary_tree", p, static_cast<int64_t>(kM) / N), 2 * (h + N - 1) * step)
          << " N=" << N;
    }
  }
}

// Two-tree bcast (Sect. 2.1): half the blocks down each tree, both trees at
// once, so the pipelined tree's 2(h + N' - 1) steps with N' = N/2 blocks per
// tree, each step moving one block of m/N: 2(h + N/2 - 1)(alpha + beta m/N);
// 2^h is the smallest power of two >= p - 1 (the trees span p - 1 ranks,
// the root sits on top, so h is again the height in edges).  p = 2^h - 1:
// the paper's construction without pruning (for other p one tree of
// hiercoll's may be a level deeper than the other: up to 2 steps more).
TEST(SimClosedForm, TwoTreeBcast) {
  for (int p : {7, 15, 31, 63}) {
    const int h = static_cast<int>(std::ceil(std::log2(p - 1)));
    for (int N : {2, 8, 64}) {
      const double step = kA + kM / N * kB;
      EXPECT_WITHIN_2PCT(bcast_us("twotree", p, static_cast<int64_t>(kM) / N), 2 * (h + N / 2.0 - 1) * step)
          << " N=" << N;
    }
  }
}

// Rabenseifner's allreduce on p not a power of two (§5.1, Figure 12):
// pairs of the first 2r ranks (r = p - p', p' = 2^floor(lg p)) exchange
// halves and reduce them (alpha + m/2 beta + m/2 gamma), the odd rank sends
// its reduced half to the even one (alpha + m/2 beta), p' ranks run the
// power-of-two algorithm (2 lg p' alpha + 2(1 - 1/p') m beta + (1 - 1/p')
// m gamma), and the removed ranks get the result (alpha + m beta): the
// paper's (2 lg p' + 1 + 2 f_alpha) alpha + (2 + (1 + 3 f_beta)/2) m beta +
// 3/2 m gamma - (2 m beta + m gamma)/p' with a one-way message costing an
// exchange's (f_alpha = f_beta = 1: the simulator is full duplex).
TEST(SimClosedForm, RabenseifnerAllreduceNotAPowerOfTwo) {
  auto formula = [](int p) {
    const int p0 = 1 << static_cast<int>(std::floor(std::log2(p)));
    return (2 * std::log2(p0) + 3) * kA + (4 - 2.0 / p0) * kM * kB + (1.5 - 1.0 / p0) * kM * kG;
  };
  // One folded pair (r = 1): the form, to one alpha at p = 5.
  for (int p : {3, 5}) EXPECT_WITHIN_2PCT(allreduce_us("rabenseifner", p), formula(p));
  // Two or more folded pairs: above the form, by 2 alpha + m beta / 2
  // (8%) at p = 6 and 12% at p = 12 and 48.  Each pair's steps are the
  // form's; where the extra time on the critical path comes from is not
  // established yet, so this asserts the bounds seen.
  for (int p : {6, 12, 48}) {
    const double sim = allreduce_us("rabenseifner", p);
    EXPECT_GE(sim, formula(p)) << "p=" << p;
    EXPECT_LE(sim, 1.13 * formula(p)) << "p=" << p;
  }
  EXPECT_NEAR(allreduce_us("rabenseifner", 6), formula(6) + 2 * kA + kM * kB / 2, 1e-6 * formula(6));
}

// Theorem 1's pipelined binary tree, reversed: a reduce of N segments
// over the tree of the bcast above takes the bcast's 2(h + N - 1) steps
// of alpha + beta m / N when reducing is free.  The simulation matches at
// p = 7 and takes one step more from p = 15 on: a parent's receive port
// takes whichever child's message is ready first, and the leaves, whose
// blocks need nothing, run ahead of the schedule and take slots the
// schedule gives the interior children.  With each rank's receives in the
// schedule's order (receives_in_order) it is the form exactly.
TEST(SimClosedForm, PipelinedBinaryTreeReduce) {
  const int64_t count = static_cast<int64_t>(kM) / 4;
  for (int p : {7, 15, 31, 63}) {
    const int h = static_cast<int>(std::log2(p + 1)) - 1;
    const int N = 64;
    const double step = kA + kM / N * kB;
    EXPECT_WITHIN_2PCT(simulate_flat(Op::kReduce, "pipelined_binary_tree", p, count, 4, count / N, true).time_us,
                       2 * (h + N - 1) * step);
    for (int n : {2, 8, 64}) {
      const double step_n = kA + kM / n * kB;
      EXPECT_NEAR(simulate_flat(Op::kReduce, "pipelined_binary_tree", p, count, 4, count / n, true, false, true).time_us,
                  2 * (h + n - 1) * step_n, 1e-6 * step_n)
          << "p=" << p << " N=" << n;
    }
  }
}

// Two-tree paper, Theorem 1: the two-tree reduce runs the bcast's
// schedule backwards, so with free reductions it takes the bcast's
// 2(h + N/2 - 1) steps of alpha + beta m/N (TwoTreeBcast above; h =
// ceil(lg(p - 1))), whose optimum over N is the theorem's time.  As the
// schedules run: within -1 to +2 steps of the form at p = 7, 8, 15, 16,
// 17, 31, 64 and N = 2, 8, 64, within 2% at N = 64 from p = 15 on (p = 7
// and 8 take 70 steps against 68); at N = 64, p = 10, 33 and 63 take 100,
// 75 and 84 steps against the bcast's 69, 73 and 74 (p = 10 settles at
// 1.5 steps a block).  The reason: a receive port takes whichever message
// is ready first, and the leaves of each tree (half the ranks), whose
// blocks need nothing, run ahead of the schedule and take the slots it
// gives the interior children, whose delay then runs up the tree.  With
// each rank's receives in the schedule's order the reduce takes exactly
// the bcast's steps at every p and N here, which the test asserts too.
TEST(SimClosedForm, TwoTreeReduce) {
  const int64_t count = static_cast<int64_t>(kM) / 4;
  auto steps = [&](Op op, int p, int N, bool ordered) {
    const double step = kA + kM / N * kB;
    const int64_t c = op == Op::kBcast ? count * 4 : count;
    return simulate_flat(op, "twotree", p, c, op == Op::kBcast ? 1 : 4, c / N, /*free_reduce=*/true, false, ordered)
               .time_us /
           step;
  };
  for (int p : {7, 8, 10, 15, 16, 17, 31, 33, 63, 64}) {
    const int h = static_cast<int>(std::ceil(std::log2(p - 1)));
    for (int N : {2, 8, 64}) {
      const double form = 2 * (h + N / 2.0 - 1), sim = steps(Op::kReduce, p, N, false);
      EXPECT_NEAR(steps(Op::kReduce, p, N, true), steps(Op::kBcast, p, N, false), 1e-6) << "p=" << p << " N=" << N;
      if (N == 64 && (p == 10 || p == 33 || p == 63)) {
        EXPECT_GE(sim, form - 1e-6) << "p=" << p;
        EXPECT_LE(sim, 1.45 * form) << "p=" << p;
        continue;
      }
      EXPECT_GE(sim, form - 1 - 1e-6) << "p=" << p << " N=" << N;
      EXPECT_LE(sim, form + 2 + 1e-6) << "p=" << p << " N=" << N;
      if (N == 64 && p >= 15) {
        EXPECT_WITHIN_2PCT(sim, form);
      }
    }
  }
}

// Two-tree paper, Theorem 2: the two-tree scan takes 4h - 2 + 2(N - 2)
// steps of alpha + beta m/N for N blocks (half down each tree), reducing
// free, h = ceil(lg p) the height of the complete trees the construction
// starts from.  hiercoll's trees are those trees pruned to p nodes, so
// below a power of two they are shallower: from 6 steps fewer (p just
// above a power of two: 10, 17, 33) to 2 more (p = 31, one tree of the
// pair a level deeper), all asserted; within 2% at N = 64 for p = 7, 8,
// 16, 31, 63, 64 (p = 10, 15, 17, 33 are 2-4% faster than the form).
TEST(SimClosedForm, TwoTreeScan) {
  const int64_t count = static_cast<int64_t>(kM) / 4;
  for (int p : {7, 8, 10, 15, 16, 17, 31, 33, 63, 64}) {
    const int h = static_cast<int>(std::ceil(std::log2(p)));
    for (int N : {2, 8, 64}) {
      const double step = kA + kM / N * kB;
      const double form = 4 * h - 2 + 2 * (N - 2);
      const double sim =
          simulate_flat(Op::kScan, "twotree", p, count, 4, count / N, /*free_reduce=*/true).time_us / step;
      EXPECT_GE(sim, form - 6 - 1e-6) << "p=" << p << " N=" << N;
      EXPECT_LE(sim, form + 2 + 1e-6) << "p=" << p << " N=" << N;
      if (N == 64 && p != 10 && p != 15 && p != 17 && p != 33) {
        EXPECT_WITHIN_2PCT(sim, form);
      }
    }
  }
}

}  // namespace
}  // namespace hiercoll
