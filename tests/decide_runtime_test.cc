// The runtime's decisions (runtime/decisions.h) against the simulator's
// (sim/call_schedules.h) on random layouts and sizes: the same inputs give
// the same method and segment; decisions are kept per communicator and
// size class, and shared by communicators of one layout.  No MPI calls
// (the communicator's state is built by hand on a synthetic layout).
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "decide/decide.h"
#include "hier/hier_compose.h"
#include "runtime/comm_state.h"
#include "runtime/decisions.h"
#include "runtime/tuning.h"
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
      if (!m.hier) {
        EXPECT_NE(d->range.method.kind, Method::kHier) << where;
      }
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

// Figures of a machine of slow latency and fast links, unlike the built-in
// ones.
CostModel latency_bound() {
  CostModel m;
  m.alpha_us = 200;
  m.bandwidth_gbps = 50;
  m.shm_alpha_us = 0.1;
  m.shm_bandwidth_gbps = 50;
  m.reduce_gbps = 50;
  return m;
}

// A tuning file whose 4x2 entry carries the figures above and no ranges:
// the runtime decides from them on 4x2, and on 3x2, which has an entry
// without figures (the file's first figures serve it), not from the
// built-in ones.
TEST(DecideRuntime, AFilesModelFiguresDecide) {
  const Layout L42 = layout_of({2, 2, 2, 2}, "slot");
  const Layout L32 = layout_of({2, 2, 2}, "slot");
  TuningFile file;
  TuningEntry carrier;
  carrier.layout = layout_key(L42);
  carrier.has_model = true;
  carrier.model = latency_bound();
  carrier.model_source = "latency-bound test figures";
  TuningEntry plain;
  plain.layout = layout_key(L32);
  for (TuningEntry* e : {&carrier, &plain}) e->machine = {20, 1, 1, 5, 5, "test"};
  file.entries = {plain, carrier};
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/model_figures_tuning.json";
  std::string error;
  ASSERT_TRUE(save_tuning_file(path, file, &error)) << error;

  Figures theirs{latency_bound(), "test"};
  const Settings s;
  int differing = 0;
  for (const Layout* L : {&L42, &L32}) {
    FakeComm comm(*L);
    comm.state.tuning = tuning_entry(path, *L, false, false, &comm.state.figures);
    ASSERT_NE(comm.state.tuning, nullptr);
    ASSERT_NE(comm.state.figures, nullptr);
    EXPECT_NE(comm_figures(&comm.state).source.find("latency-bound test figures"), std::string::npos);
    const LayoutFacts F = layout_facts(*L);
    SimMethod m;
    m.hier = true;
    // As the runtime decides with the entry (its machine figures, not its
    // ranges, which it looks up per call).
    m.tuning = comm.state.tuning;
    DecideInput with_file = decide_input(*L, F, m);
    with_file.figures = &theirs;
    with_file.file_ranges = false;
    DecideInput builtin = with_file;
    builtin.figures = nullptr;
    for (Op op : {Op::kBcast, Op::kAllreduce, Op::kAllgather, Op::kScan})
      for (int64_t bytes : {int64_t{8}, int64_t{1} << 12, int64_t{1} << 16, int64_t{1} << 20}) {
        const Decided* d = decided(&comm.state, s, op, bytes, true);
        ASSERT_NE(d, nullptr);
        const Decision want = decide_class(with_file, op, bytes, true);
        const std::string where = layout_text(layout_key(*L)) + " " + op_name(op) + " " + std::to_string(bytes);
        EXPECT_EQ(method_text(d->range.method), method_text(want.chosen().candidate.method)) << where;
        EXPECT_EQ(d->range.segment_bytes, want.chosen().candidate.segment_bytes) << where;
        const Decision other = decide_class(builtin, op, bytes, true);
        if (!(other.chosen().candidate.method == want.chosen().candidate.method)) ++differing;
      }
  }
  // The figures make a difference somewhere, so the check above can fail.
  EXPECT_GT(differing, 0);
}

}  // namespace
}  // namespace hiercoll
