// The simulator's call layer and command: the schedules of the runtime's
// own selection on synthetic layouts, the implementations' names, tuning
// files, determinism, and the CSV files.
#include <gtest/gtest.h>

#include <fstream>

#include "hier/hier_registry.h"
#include "select/flat_rules.h"
#include "sim/call_schedules.h"
#include "sim/report.h"
#include "sim/sweep.h"
#include "tests/support/sanitize_mode.h"

namespace hiercoll {
namespace {

SimOptions layout_options(int nodes, int ppn, const std::string& placement = "slot") {
  SimOptions o;
  o.ranks_per_node.assign(nodes, ppn);
  o.placement = placement;
  return o;
}

SimPoint one_point(const SimOptions& base, const std::string& op, int64_t bytes, const std::string& impl,
                   const TuningEntry* tuning = nullptr) {
  SimOptions o = base;
  o.ops = {op};
  o.sizes = {bytes};
  o.impls = {impl};
  const std::vector<SimPoint> pts = run_sweep(o, sim_layout(o), tuning, false);
  EXPECT_EQ(pts.size(), 1u);
  return pts.front();
}

// hier and flat run what the runtime's decision (decide_class, with the
// simulated machine's figures) picks: a composition, or a flat algorithm.
TEST(SimCall, SelectionIsTheRuntimes) {
  std::vector<SimOptions> layouts = {layout_options(8, 4), layout_options(8, 1), layout_options(3, 5, "node")};
  if (testing::sanitize_mode()) layouts.resize(1);  // each point costs every candidate, minutes sanitized
  for (const SimOptions& o : layouts) {
    const Layout L = sim_layout(o);
    const LayoutFacts F = layout_facts(L);
    const Figures figures{o.model, "simulated"};
    for (const char* impl : {"hier", "flat"})
      for (int64_t bytes : {8, 1 << 20}) {
        SimMethod m;
        m.hier = std::string(impl) == "hier";
        m.figures = &figures;
        const MethodChoice want = decide_class(decide_input(L, F, m), Op::kAllreduce, bytes, true).chosen().candidate;
        const SimPoint pt = one_point(o, "allreduce", bytes, impl);
        ASSERT_TRUE(pt.simulated) << pt.note;
        EXPECT_EQ(pt.algorithm, want.method.kind == Method::kHier ? method_text(want.method) : want.method.name)
            << impl << " " << bytes << " on " << layout_text(layout_key(L));
      }
  }
}

TEST(SimCall, ForcedImplementations) {
  const SimOptions o = layout_options(4, 4);
  EXPECT_EQ(one_point(o, "bcast", 1 << 16, "flat:chain").algorithm, "chain");
  // A leaders' algorithm alone: on the decided composition.
  const std::string two = one_point(o, "bcast", 1 << 16, "hier:twotree").algorithm;
  EXPECT_EQ(two.rfind("hier:bcast", 0), 0u) << two;
  EXPECT_NE(two.find(" inter=twotree"), std::string::npos) << two;
  const SimPoint bad = one_point(o, "bcast", 8, "flat:nonesuch");
  EXPECT_FALSE(bad.simulated);
  EXPECT_EQ(bad.note, "no flat bcast algorithm named 'nonesuch'");
  const SimPoint native = one_point(o, "bcast", 8, "native");
  EXPECT_FALSE(native.simulated);
  EXPECT_EQ(native.note, "native is Open MPI's own collective: no hiercoll schedule, nothing to simulate");
  // Forced but unfit (recursive halving needs a commutative op: fine; a
  // power-of-two-only algorithm on 12 ranks is not): the runtime's fallback.
  const SimPoint unfit = one_point(layout_options(3, 4), "allgather", 64, "flat:recursive_doubling");
  ASSERT_TRUE(unfit.simulated) << unfit.note;
}

TEST(SimCall, TunedFollowsTheFileAndRefusesNative) {
  const SimOptions o = layout_options(4, 2);
  TuningEntry e;
  e.layout = layout_key(sim_layout(o));
  e.machine = builtin_machine();
  TunedRange small, large;
  small.to_bytes = 4096;
  small.method = Method{Method::kFlat, "ring", ""};
  large.from_bytes = 4096;
  large.method = Method{Method::kNative, "", ""};
  e.ranges[static_cast<int>(Op::kAllreduce)] = {small, large};
  EXPECT_EQ(one_point(o, "allreduce", 1024, "tuned", &e).algorithm, "ring");
  const SimPoint native = one_point(o, "allreduce", 1 << 20, "tuned", &e);
  EXPECT_FALSE(native.simulated);
  EXPECT_EQ(native.note, "the tuning file's method for this size is native (Open MPI's own), which cannot be simulated");
}

// Same inputs, same result to the last bit; rooted operations report the
// median of their sampled roots.
TEST(SimCall, DeterministicAndRootSampled) {
  const SimOptions o = layout_options(6, 5, "node");
  const SimPoint a = one_point(o, "allreduce", 1 << 18, "hier");
  const SimPoint b = one_point(o, "allreduce", 1 << 18, "hier");
  ASSERT_TRUE(a.simulated) << a.note;
  EXPECT_EQ(a.result.time_us, b.result.time_us);
  EXPECT_EQ(a.result.critical.inter_us, b.result.critical.inter_us);
  EXPECT_EQ(a.result.messages, b.result.messages);
  const SimPoint r = one_point(o, "bcast", 1 << 18, "hier");
  EXPECT_EQ(r.roots, 3);
  EXPECT_NEAR(r.result.critical.total(), r.result.time_us, 1e-6 * r.result.time_us);  // shares are floats
}

// The shared link is why hierarchy pays: with 16 ranks per node, a flat
// binomial bcast of 1 MiB sends several messages per node at once through
// one link; the hierarchical one crosses each link once.
TEST(SimCall, HierarchyBeatsFlatWhenLinksAreShared) {
  SimOptions o = layout_options(16, 16);
  o.roots = {0};  // both are root independent; each point decides among every candidate at 256 ranks
  const double hier = one_point(o, "bcast", 1 << 20, "hier").result.time_us;
  const double flat = one_point(o, "bcast", 1 << 20, "flat:binomial").result.time_us;
  EXPECT_LT(hier, flat);
}

TEST(SimCall, CsvFiles) {
  SimOptions o = layout_options(2, 3);
  o.ops = {"bcast"};
  o.sizes = {1024};
  o.impls = {"hier", "native"};
  const std::vector<SimPoint> pts = run_sweep(o, sim_layout(o), nullptr, false);
  const std::string dir = ::testing::TempDir();
  std::string error;
  ASSERT_TRUE(write_csv_files(dir, o, pts, &error)) << error;
  std::ifstream sim(dir + "/simulated.csv"), crit(dir + "/critical_path.csv");
  std::string header, row, more, crit_header;
  std::getline(sim, header);
  std::getline(sim, row);
  EXPECT_EQ(header, "op,bytes,nodes,ppn,impl,algorithm,predicted_us");
  EXPECT_EQ(row.rfind("bcast,1024,2,3,hier,hier:bcast,", 0), 0u) << row;
  EXPECT_FALSE(std::getline(sim, more));  // native was skipped
  std::getline(crit, crit_header);
  EXPECT_EQ(crit_header, kCriticalPathCsvHeader);
  EXPECT_EQ(ppn_text({3, 1, 2}), "3+1+2");
}

// --out DIR makes DIR and its parents, as mkdir -p; a path under a file
// cannot be made and says so.
TEST(SimCall, CsvFilesMakeTheirFolder) {
  SimOptions o = layout_options(2, 2);
  o.ops = {"bcast"};
  o.sizes = {8};
  o.impls = {"hier"};
  const std::vector<SimPoint> pts = run_sweep(o, sim_layout(o), nullptr, false);
  const std::string dir = ::testing::TempDir() + "/out_parent/a/b";
  std::string error;
  ASSERT_TRUE(write_csv_files(dir, o, pts, &error)) << error;
  EXPECT_TRUE(std::ifstream(dir + "/simulated.csv").good());
  std::ofstream(::testing::TempDir() + "/a_file") << "x";
  EXPECT_FALSE(write_csv_files(::testing::TempDir() + "/a_file/sub", o, pts, &error));
  EXPECT_NE(error.find("cannot create"), std::string::npos) << error;
}

// The command line: bench's spellings, one clear line per bad input.
TEST(SimCall, OptionsAndTheirErrors) {
  auto parse = [](std::vector<const char*> args, SimOptions* o) {
    args.insert(args.begin(), "simulate");
    *o = SimOptions{};
    std::string error;
    parse_sim_options(static_cast<int>(args.size()), const_cast<char**>(args.data()), o, &error);
    return error;
  };
  SimOptions o;
  EXPECT_EQ(parse({"--ppn-list", "3,1,2", "--map-by", "node", "--sizes", "8,64K-256K", "--roots", "0,5"}, &o), "");
  EXPECT_EQ(o.ranks_per_node, (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(o.placement, "node");
  EXPECT_EQ(o.sizes, (std::vector<int64_t>{8, 65536, 131072, 262144}));
  EXPECT_EQ(o.roots, (std::vector<int>{0, 5}));
  EXPECT_EQ(parse({"--eager-limit", "64K", "--shm-eager-limit", "4096"}, &o), "");
  EXPECT_EQ(o.model.eager_limit, 65536);
  EXPECT_EQ(o.model.shm_eager_limit, 4096);
  EXPECT_FALSE(o.fit_absolute);
  EXPECT_EQ(parse({"--fit", "absolute"}, &o), "");
  EXPECT_TRUE(o.fit_absolute);
  SimOptions fresh;
  EXPECT_EQ(parse({"--nodes", "0"}, &fresh), "--nodes '0': expected a whole number in 1..16777216");
  EXPECT_EQ(parse({"--ops", "bcast,nonesuch"}, &fresh).rfind("unknown operation 'nonesuch'", 0), 0u);
  EXPECT_EQ(parse({"--impls", "tuned"}, &fresh), "the implementation 'tuned' needs --tuning FILE");
  EXPECT_EQ(parse({"--nodes", "2", "--ppn", "2", "--roots", "4"}, &fresh), "--roots: rank 4 is not below the 4 ranks");
  EXPECT_EQ(parse({"--bandwidth", "0"}, &fresh), "--bandwidth must be > 0 (GB/s)");
  EXPECT_EQ(parse({"--map-by", "core"}, &fresh), "--map-by 'core': expected slot or node");
  EXPECT_EQ(parse({"--alpha"}, &fresh), "--alpha needs a value");
  EXPECT_EQ(parse({"--fit", "median"}, &fresh), "--fit 'median': expected squares or absolute");
  EXPECT_EQ(parse({"--eager-limit", "-1"}, &fresh), "--eager-limit '-1': expected one size");
}

}  // namespace
}  // namespace hiercoll

namespace hiercoll {
namespace {

// A call whose schedules would pass --max-steps is skipped before it is
// built, saying so; one below it runs.
TEST(SimCall, CallsBeyondTheStepBudgetAreSkipped) {
  SimOptions o = layout_options(16, 4);
  o.max_steps = 2000;  // ring allgather on 64 ranks: 64 x 126 steps
  const SimPoint ring = one_point(o, "allgather", 8, "flat:ring");
  EXPECT_FALSE(ring.simulated);
  EXPECT_NE(ring.note.find("more than --max-steps 2000"), std::string::npos) << ring.note;
  const SimPoint rd = one_point(o, "allgather", 8, "flat:recursive_doubling");
  EXPECT_TRUE(rd.simulated) << rd.note;
}

// Where the decision itself derived the method's cost from smaller layouts
// (its schedules pass the decision's step limit too), a point past
// --max-steps reports that cost, marked derived, close to the whole
// simulation's time.
TEST(SimCall, PastTheStepBudgetTheDecisionsDerivedCostStands) {
  SimOptions o = layout_options(64, 8);  // ring allgather: 512 x 1022 steps, past the decision's 2^18
  const SimPoint whole = one_point(o, "allgather", 1024, "flat:ring");
  ASSERT_TRUE(whole.simulated) << whole.note;
  EXPECT_FALSE(whole.derived);
  o.max_steps = 2000;
  const SimPoint derived = one_point(o, "allgather", 1024, "flat:ring");
  ASSERT_TRUE(derived.simulated) << derived.note;
  EXPECT_TRUE(derived.derived);
  EXPECT_EQ(derived.algorithm, "ring (derived)");
  EXPECT_EQ(derived.note.rfind("derived from", 0), 0u) << derived.note;
  EXPECT_NEAR(derived.result.time_us / whole.result.time_us, 1.0, 0.10)
      << derived.result.time_us << " us against " << whole.result.time_us << " us";
}

// Where the decision had too few smaller layouts within its limit (a ring
// over 64 ranks a node: 2 nodes fit, 4 do not), the point derives the cost
// itself from samples of up to an eighth of --max-steps.
TEST(SimCall, PastTheStepBudgetAPointDerivesItsOwnCost) {
  SimOptions o = layout_options(32, 64);  // ring allgather: 2048 x 4094 steps
  const SimPoint whole = one_point(o, "allgather", 64, "flat:ring");
  ASSERT_TRUE(whole.simulated) << whole.note;
  o.max_steps = 5'000'000;  // samples of 2, 4 and 8 nodes (8: 512 x 1022 steps)
  const SimPoint derived = one_point(o, "allgather", 64, "flat:ring");
  ASSERT_TRUE(derived.simulated) << derived.note;
  EXPECT_TRUE(derived.derived);
  EXPECT_EQ(derived.note.rfind("derived from 2-8 nodes", 0), 0u) << derived.note;
  EXPECT_NEAR(derived.result.time_us / whole.result.time_us, 1.0, 0.10)
      << derived.result.time_us << " us against " << whole.result.time_us << " us";
}

// The v-variants are decided at one size for all (by group size): a point
// past --max-steps derives its own cost at its own blocks' size.
TEST(SimCall, PastTheStepBudgetAVariantDerivesAtItsOwnSize) {
  // Pairwise alltoallv: 512 x 1023 steps, past the decision's 2^18, so the
  // decision derives it too (at its one size).
  SimOptions o = layout_options(64, 8);
  const SimPoint small_whole = one_point(o, "alltoallv", 8, "flat:pairwise");
  const SimPoint large_whole = one_point(o, "alltoallv", 65536, "flat:pairwise");
  ASSERT_TRUE(small_whole.simulated && large_whole.simulated) << small_whole.note << large_whole.note;
  o.max_steps = 100000;  // samples of up to 12500 steps: 2, 4 and 8 nodes
  const SimPoint small = one_point(o, "alltoallv", 8, "flat:pairwise");
  const SimPoint large = one_point(o, "alltoallv", 65536, "flat:pairwise");
  ASSERT_TRUE(small.derived && large.derived) << small.note << large.note;
  EXPECT_NEAR(small.result.time_us / small_whole.result.time_us, 1.0, 0.15) << small.note;
  EXPECT_NEAR(large.result.time_us / large_whole.result.time_us, 1.0, 0.15) << large.note;
}

}  // namespace
}  // namespace hiercoll
