// The sweep decides once per point and simulates every root under that
// decision (sim/call_schedules.h call_decision).  Its predictions must be
// those of the plain path, which decides again at every root
// (call_schedules): the same algorithm, the same time to the last bit, the
// same critical path and counts, on random layouts (uneven nodes,
// round-robin placement), roots, operations and sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "decide/model_call.h"
#include "select/tuning_file.h"
#include "sim/call_schedules.h"
#include "sim/engine.h"
#include "sim/sweep.h"
#include "tests/support/sanitize_mode.h"

namespace hiercoll {
namespace {

// The plain path's result at the median root, as the sweep picks it.
SimResult plain_median(const SimOptions& o, const Layout& L, Op op, int64_t bytes, const std::vector<int>& roots,
                       const SimMethod& m, std::string* algorithm) {
  const LayoutFacts F = layout_facts(L);
  std::vector<SimResult> at_roots;
  for (int root : roots) {
    const SimCall call = bench_call(op, bytes, L.size, root);
    CallSchedules cs;
    std::string error;
    EXPECT_TRUE(call_schedules(L, F, call, m, &cs, &error)) << error;
    *algorithm = cs.algorithm;
    SimResult res;
    EXPECT_TRUE(simulate(SimInput{&cs.schedules, &L.node_of, call.unit_bytes}, o.model, &res, &error)) << error;
    at_roots.push_back(res);
  }
  std::sort(at_roots.begin(), at_roots.end(),
            [](const SimResult& a, const SimResult& b) { return a.time_us < b.time_us; });
  return at_roots[at_roots.size() / 2];
}

TEST(SimSharedDecision, SweepEqualsDecidingAtEveryRoot) {
  std::mt19937 rng(30);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::vector<std::pair<std::string, Op>> ops = {
      {"bcast", Op::kBcast}, {"reduce", Op::kReduce}, {"allreduce", Op::kAllreduce}, {"gather", Op::kGather}};
  const std::vector<int64_t> sizes = {8, 1000, 4096, 65536, 300000, 1 << 20};
  const int cases = testing::sanitize_mode() ? 8 : 60;
  int compared = 0;
  for (int c = 0; c < cases; ++c) {
    SimOptions o;
    o.ranks_per_node.clear();
    for (int n = pick(2, 6); n > 0; --n) o.ranks_per_node.push_back(pick(1, 5));
    o.placement = pick(0, 1) ? "node" : "slot";
    const Layout L = sim_layout(o);
    o.roots.clear();
    for (int k = pick(1, 3); k > 0; --k) o.roots.push_back(pick(0, L.size - 1));
    const auto& [op_text, op] = ops[static_cast<size_t>(pick(0, static_cast<int>(ops.size()) - 1))];
    o.ops = {op_text};
    o.sizes = {sizes[static_cast<size_t>(pick(0, static_cast<int>(sizes.size()) - 1))]};
    o.impls = {pick(0, 1) ? "hier" : "flat"};
    const std::vector<SimPoint> pts = run_sweep(o, L, nullptr, false);
    ASSERT_EQ(pts.size(), 1u);
    const SimPoint& pt = pts.front();
    ASSERT_TRUE(pt.simulated) << pt.note;

    SimMethod m;
    m.hier = o.impls[0] == "hier";
    const Figures figures{o.model, "the simulated machine's figures"};
    m.figures = &figures;
    // An operation without a root runs once, at rank 0.
    const std::vector<int> roots = op == Op::kAllreduce ? std::vector<int>{0} : o.roots;
    std::string algorithm;
    const SimResult want = plain_median(o, L, op, o.sizes[0], roots, m, &algorithm);
    const std::string what =
        op_text + " " + std::to_string(o.sizes[0]) + " " + o.impls[0] + " on " + layout_text(layout_key(L));
    EXPECT_EQ(pt.algorithm, algorithm) << what;
    EXPECT_EQ(pt.roots, static_cast<int>(roots.size())) << what;
    EXPECT_EQ(pt.result.time_us, want.time_us) << what;
    EXPECT_EQ(pt.result.critical.inter_us, want.critical.inter_us) << what;
    EXPECT_EQ(pt.result.critical.intra_us, want.critical.intra_us) << what;
    EXPECT_EQ(pt.result.critical.reduce_us, want.critical.reduce_us) << what;
    EXPECT_EQ(pt.result.steps, want.steps) << what;
    EXPECT_EQ(pt.result.messages, want.messages) << what;
    EXPECT_EQ(pt.result.inter_bytes, want.inter_bytes) << what;
    EXPECT_GT(want.time_us, 0) << what;
    ++compared;
  }
  EXPECT_EQ(compared, cases);
}

}  // namespace
}  // namespace hiercoll
