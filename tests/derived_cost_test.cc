// Costs derived for layouts too large to simulate (decide/model_cost.h):
// the growth fit recovers the collectives' forms and reads forms it cannot
// tell apart as the costlier, the smaller layouts keep the layout's kind,
// and on layouts small enough to simulate whole the derived costs stay
// close to the simulated ones and choose a method as fast as the
// simulation's choice.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "decide/candidates.h"
#include "decide/decide.h"
#include "decide/growth_fit.h"
#include "decide/model_cost.h"
#include "decide/phase_choice.h"
#include "decide/scaled_layout.h"
#include "hier/hier_compose.h"
#include "sim/sweep.h"

namespace hiercoll {
namespace {

std::vector<GrowthSample> samples_of(double (*f)(double), std::vector<double> nodes) {
  std::vector<GrowthSample> s;
  for (double n : nodes) s.push_back({n, f(n)});
  return s;
}

TEST(GrowthFit, RecoversEachFormOfTheCollectives) {
  struct Case {
    const char* what;
    double (*f)(double);
  } cases[] = {
      {"binomial: a + b lg n", [](double n) { return 30 + 12 * std::log2(n); }},
      {"ring, a block a rank: a + c (n-1)", [](double n) { return 5 + 40 * (n - 1); }},
      {"halving: a + b lg n + d (1-1/n)", [](double n) { return 20 + 9 * std::log2(n) + 700 * (1 - 1 / n); }},
      {"ring, a message in all: a + c (n-1) + d (1-1/n)", [](double n) { return 3 + 2 * (n - 1) + 900 * (1 - 1 / n); }},
      {"Bruck's alltoall: a + b lg n + e n lg n", [](double n) { return 4 + 3 * std::log2(n) + 0.5 * n * std::log2(n); }},
  };
  for (const Case& c : cases) {
    GrowthFit fit;
    ASSERT_TRUE(fit_growth(samples_of(c.f, {2, 4, 8, 16, 32, 64}), 1024, &fit)) << c.what;
    EXPECT_NEAR(fit.us / c.f(1024), 1.0, 1e-6) << c.what << ": " << fit.form;
  }
}

// Three samples fit with one or two terms: a line and a logarithm are told
// apart by how each predicts the third sample from the first two.
TEST(GrowthFit, ALineStaysALine) {
  GrowthFit fit;
  ASSERT_TRUE(fit_growth({{2, 127}, {4, 255}, {8, 511}}, 1024, &fit));
  EXPECT_NEAR(fit.us, 64 * 1024 - 1, 1.0) << fit.form;
  ASSERT_TRUE(fit_growth({{2, 1}, {4, 2}, {8, 3}}, 1024, &fit));
  EXPECT_NEAR(fit.us, 10, 1e-9) << fit.form;
}

TEST(GrowthFit, NeedsThreeSmallerLayoutsAndNeverPredictsBelowThem) {
  GrowthFit fit;
  EXPECT_FALSE(fit_growth({{2, 5}, {4, 6}}, 64, &fit));
  EXPECT_FALSE(fit_growth({{2, 5}, {4, 6}, {64, 9}}, 64, &fit));  // a sample not smaller
  EXPECT_FALSE(fit_growth({{2, 5}, {2, 6}, {4, 9}}, 64, &fit));   // two node counts only
  ASSERT_TRUE(fit_growth({{2, 9}, {4, 7}, {8, 5}}, 64, &fit));   // falling: no non-negative form
  EXPECT_GE(fit.us, 5);
}

TEST(ScaledLayout, KeepsTheKindOfTheLayout) {
  const Layout slot = layout_with_nodes(layout_of(std::vector<int>(8, 4), "slot"), 2);
  EXPECT_EQ(slot.size, 8);
  EXPECT_EQ(slot.num_nodes, 2);
  EXPECT_TRUE(slot.consecutive);
  const Layout rr = layout_with_nodes(layout_of(std::vector<int>(8, 4), "node"), 4);
  EXPECT_EQ(rr.size, 16);
  EXPECT_FALSE(rr.consecutive);
  for (int r = 0; r < rr.size; ++r) EXPECT_EQ(rr.node_of[r], r % 4) << r;
  const Layout uneven = layout_with_nodes(layout_of({3, 1, 2, 3, 1, 2}, "slot"), 3);
  ASSERT_EQ(uneven.num_nodes, 3);
  EXPECT_EQ(uneven.node_size(0), 3);
  EXPECT_EQ(uneven.node_size(1), 2);  // node floor(1 x 6 / 3) = 2 of the layout
  EXPECT_EQ(uneven.node_size(2), 1);
}

// Every candidate of an operation on a layout simulated whole and derived
// from its smaller layouts (the step limit set just below the whole one's
// steps, so the samples run and the whole does not).
struct Compared {
  std::string method;
  double simulated = 0, derived = 0;
  std::string form;
};

std::vector<Compared> compare(const Layout& L, Op op, int64_t bytes) {
  const LayoutFacts F = layout_facts(L);
  SimCall call = bench_call(op, bytes, L.size, 0);
  Figures fig;  // the simulator's default machine: the papers' model, a fast network
  std::vector<Compared> out;
  for (const MethodChoice& c : candidates_for(L, F, call, CandidateScope{})) {
    CandidateSchedules cs;
    std::string why;
    if (!candidate_schedules(L, F, call, c, nullptr, model_phases(fig), int64_t{1} << 40, &cs, &why)) continue;
    const ModelCost whole = model_cost(L, F, call, c, nullptr, fig, int64_t{1} << 40);
    const ModelCost derived = model_cost(L, F, call, c, nullptr, fig, cs.schedules.steps() - 1);
    EXPECT_GT(whole.us, 0) << candidate_text(c) << ": " << whole.note;
    if (derived.us < 0) continue;  // too few smaller layouts fit under the limit
    out.push_back({candidate_text(c), whole.us, derived.us, derived.note});
  }
  return out;
}

TEST(DerivedCost, CloseToTheSimulationAndChoosingAsWell) {
  const Layout L = layout_of(std::vector<int>(32, 4), "slot");
  std::vector<double> errors;
  for (Op op : {Op::kBcast, Op::kAllreduce, Op::kAllgather, Op::kReduce})
    for (int64_t bytes : {64, 65536, 1 << 20}) {
      const std::vector<Compared> v = compare(L, op, bytes);
      for (const Compared& c : v) errors.push_back(std::fabs(c.derived / c.simulated - 1));
      ASSERT_GE(v.size(), 3u) << op_name(op) << " " << bytes;
      const Compared* best_sim = &v[0];
      const Compared* best_derived = &v[0];
      std::string costs;  // every candidate's two costs, for the failure's message
      for (const Compared& c : v) {
        char line[256];
        std::snprintf(line, sizeof line, "\n  %-45s simulated %10.1f derived %10.1f  %s", c.method.c_str(),
                      c.simulated, c.derived, c.form.c_str());
        costs += line;
        if (c.simulated < best_sim->simulated) best_sim = &c;
        if (c.derived < best_derived->derived) best_derived = &c;
      }
      // 1.20: a ring among the leaders hides its n - 1 latencies behind
      // its bandwidth term up to the 16-node samples, so its derived form
      // lacks them (reduce of 1 MiB, leaders' ring: 17% low at 32 nodes),
      // the fit's known blind spot past its samples.
      EXPECT_LE(best_derived->simulated, 1.20 * best_sim->simulated)
          << op_name(op) << " " << bytes << ": derived picks " << best_derived->method << ", simulation "
          << best_sim->method << costs;
    }
  // The typical candidate within a tenth of its simulation.
  std::sort(errors.begin(), errors.end());
  ASSERT_FALSE(errors.empty());
  EXPECT_LE(errors[errors.size() / 2], 0.10);
}

// A v-variant's samples keep its blocks' size (its tuning_bytes is 0):
// derived costs grow with the blocks and stay near the simulation.
TEST(DerivedCost, VariantsKeepTheirBlocksSize) {
  const Layout L = layout_of(std::vector<int>(32, 4), "slot");
  for (Op op : {Op::kAlltoallv, Op::kGatherv, Op::kAllgatherv}) {
    const std::vector<Compared> small = compare(L, op, 64), large = compare(L, op, 65536);
    ASSERT_FALSE(small.empty()) << op_name(op);
    ASSERT_EQ(small.size(), large.size()) << op_name(op);
    for (size_t i = 0; i < small.size(); ++i) {
      const Compared &s = small[i], &l = large[i];
      EXPECT_GT(l.derived, 4 * s.derived) << op_name(op) << " " << l.method;
      EXPECT_NEAR(l.derived / l.simulated, 1, 0.25) << op_name(op) << " " << l.method << ": " << l.form;
    }
  }
}

// The decision on a layout past its step limit costs every candidate (none
// left out as before), each from smaller layouts, and says so.
TEST(DerivedCost, TheDecisionCostsEveryCandidatePastTheLimit) {
  const Layout L = layout_of(std::vector<int>(32, 4), "slot");
  const LayoutFacts F = layout_facts(L);
  const Figures fig;
  DecideInput in;
  in.layout = &L;
  in.facts = &F;
  in.figures = &fig;
  in.max_steps = 1 << 12;
  for (Op op : {Op::kBcast, Op::kAllgather}) {
    const Decision d = decide_class(in, op, 65536, true);
    EXPECT_EQ(d.source, Source::kModel);
    int derived = 0;
    for (const Costed& c : d.ranked) {
      // Open MPI's own is costed only where its pick has a schedule here
      // (decide/native_rules.h): at 128 ranks its k-nomial bcast and
      // neighbour-exchange allgather have none.
      if (c.candidate.method.kind == Method::kNative) continue;
      EXPECT_GT(c.us, 0) << candidate_text(c.candidate) << ": " << c.note;
      if (c.derived) {
        ++derived;
        EXPECT_EQ(c.note.rfind("derived from", 0), 0u) << c.note;
      }
    }
    EXPECT_GT(derived, 0) << op_name(op);
  }
}

}  // namespace
}  // namespace hiercoll
