// The runtime's decisions (runtime/decisions.h) against the simulator's
// (sim/call_schedules.h) on random layouts and sizes: the same inputs give
// the same method and segment; decisions are kept per communicator and
// size class, and shared by communicators of one layout.  No MPI calls
// (the communicator's state is built by hand on a synthetic layout).
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "decide/decide.h"
#include "hier/hier_compose.h"
#include "runtime/comm_state.h"
#include "runtime/decisions.h"
#include "sim/call_schedules.h"
#include "sim/sweep.h"

namespace hiercoll {
namespace {

// A communicator's state on layout L, as run.cc fills it on first use.
struct FakeComm {
  Topology topo;
  CommState state;
  explicit FakeComm(const Layout& L) {
    topo.layout = std::make_shared<const Layout>(L);
    state.topology = &topo;
    state.facts = layout_facts(*topo.layout);
    state.tuning_resolved = true;
  }
};

const Op kModelOps[] = {Op::kBcast,   Op::kReduce, Op::kAllreduce, Op::kAllgather, Op::kReduceScatter,
                        Op::kAlltoall, Op::kScan,   Op::kExscan,    Op::kBarrier,   Op::kGather,
                        Op::kScatter};

TEST(DecideRuntime, TheRuntimeAndTheSimulatorDecideAlike) {
  std::mt19937 gen(2026);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<int> ranks(1 + gen() % 5);
    for (int& r : ranks) r = 1 + static_cast<int>(gen() % 4);
    const std::string placement = gen() % 2 ? "node" : "slot";
    const Layout L = layout_of(ranks, placement);
    const LayoutFacts F = layout_facts(L);
    FakeComm comm(L);
    Settings s;
    if (gen() % 4 == 0) s.mode = Mode::kFlat;
    SimMethod m;
    m.hier = s.mode == Mode::kHier;
    for (int k = 0; k < 4; ++k) {
      const Op op = kModelOps[gen() % (sizeof kModelOps / sizeof kModelOps[0])];
      const int64_t bytes = op == Op::kBarrier ? 0 : int64_t{1} << (gen() % 23);
      const bool commutative = gen() % 3 != 0;
      const Decided* d = decided(&comm.state, s, op, bytes, commutative);
      ASSERT_NE(d, nullptr) << op_name(op);
      const Decision sim = decide_class(decide_input(L, F, m), op, bytes, commutative);
      const std::string where = layout_text(layout_key(L)) + " " + op_name(op) + " " + std::to_string(bytes) +
                                (commutative ? "" : " non-commutative") + (m.hier ? "" : " flat");
      EXPECT_EQ(method_text(d->range.method), method_text(sim.chosen().candidate.method)) << where;
      EXPECT_EQ(d->range.segment_bytes, sim.chosen().candidate.segment_bytes) << where;
      EXPECT_EQ(d->source, sim.source) << where;
      if (!m.hier) EXPECT_NE(d->range.method.kind, Method::kHier) << where;
    }
  }
}

TEST(DecideRuntime, KeptPerSizeClassAndSharedByCommunicatorsOfOneLayout) {
  const Layout L = layout_of({2, 2, 2, 2}, "slot");
  FakeComm a(L), b(L);
  const Settings s;
  const Decided* d1 = decided(&a.state, s, Op::kAllreduce, 1 << 20, true);
  // Same class (1 MiB up to 1.5 MiB): the same decision, no new one.
  EXPECT_EQ(decided(&a.state, s, Op::kAllreduce, (1 << 20) + 1000, true), d1);
  // Another communicator of the same layout: the process's table.
  EXPECT_EQ(decided(&b.state, s, Op::kAllreduce, 1 << 20, true), d1);
  // Another class, commutativity or mode: decided on its own.
  EXPECT_NE(decided(&a.state, s, Op::kAllreduce, 3 << 19, true), d1);
  EXPECT_NE(decided(&a.state, s, Op::kAllreduce, 1 << 20, false), d1);
  Settings flat;
  flat.mode = Mode::kFlat;
  FakeComm c(L);
  const Decided* f = decided(&c.state, flat, Op::kAllreduce, 1 << 20, true);
  EXPECT_NE(f, d1);
  EXPECT_NE(f->range.method.kind, Method::kHier);
  // The operations the model leaves to the file and the rules.
  EXPECT_EQ(decided(&a.state, s, Op::kGatherv, 1024, true), nullptr);
  EXPECT_EQ(decided(&a.state, s, Op::kAllgatherv, 1024, true), nullptr);
}

}  // namespace
}  // namespace hiercoll
