// The one decision (decide/decide.h) on synthetic layouts, no MPI: the
// cheapest candidate wins under the model, the tuning file's measurement
// replaces the model and wins, a knob forces (what does not fit gives way
// to the decided method), ties go to the earlier candidate, decisions are
// deterministic, each figures source, layouts without entries, native
// costed as coll/tuned's pick, and `explain`'s table and CSV.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "decide/candidate.h"
#include "decide/candidates.h"
#include "decide/decide.h"
#include "decide/model_cost.h"
#include "decide/phase_choice.h"
#include "decide/native_rules.h"
#include "hier/hier_compose.h"
#include "hier/hier_registry.h"
#include "sim/engine.h"
#include "sim/explain.h"
#include "sim/sweep.h"

namespace hiercoll {
namespace {

struct Fixture {
  Layout L;
  LayoutFacts F;
  DecideInput in;
  explicit Fixture(const std::vector<int>& ranks_per_node, const std::string& placement = "slot",
                   const Figures* figures = nullptr)
      : L(layout_of(ranks_per_node, placement)), F(layout_facts(L)) {
    in.layout = &L;
    in.facts = &F;
    in.figures = figures;
  }
};

std::vector<std::string> names(const Decision& d) {
  std::vector<std::string> out;
  for (const Costed& c : d.ranked) out.push_back(candidate_text(c.candidate));
  return out;
}

// The papers' model with latency only: a step costs alpha, bytes nothing.
Figures latency_only() {
  Figures f;
  f.model.alpha_us = 1;
  f.model.shm_alpha_us = 1;
  f.model.bandwidth_gbps = 1e9;
  f.model.shm_bandwidth_gbps = 1e9;
  f.model.reduce_gbps = 1e9;
  f.source = "latency only";
  return f;
}

TEST(Decide, TheModelsCheapestWinsAndTheRestFollowByCost) {
  for (const auto& layout : {std::vector<int>{2, 2, 2, 2}, std::vector<int>{3, 1, 2}, std::vector<int>{8}}) {
    Fixture fx(layout);
    for (Op op : {Op::kBcast, Op::kAllreduce, Op::kReduce, Op::kAllgather, Op::kScan, Op::kBarrier})
      for (int64_t bytes : {8, 4096, 1 << 20}) {
        const Decision d = decide_class(fx.in, op, bytes, true);
        ASSERT_FALSE(d.ranked.empty());
        EXPECT_EQ(d.source, Source::kModel) << op_name(op);
        ASSERT_GE(d.ranked[0].us, 0) << op_name(op) << " " << bytes;
        // Ties (alike costs) keep the candidates' order.
        SimCall call = bench_call(op, class_bytes(size_class(bytes)), fx.in.layout->size, 0);
        const std::vector<MethodChoice> order = candidates_for(*fx.in.layout, *fx.in.facts, call, fx.in.scope);
        auto index = [&](const Costed& c) { return std::find(order.begin(), order.end(), c.candidate) - order.begin(); };
        for (size_t i = 1; i < d.ranked.size(); ++i) {
          if (d.ranked[i].us < 0) continue;  // not costed: last
          const Costed &a = d.ranked[i - 1], &b = d.ranked[i];
          EXPECT_LE(cost_ns(a.us), cost_ns(b.us)) << op_name(op) << " " << bytes << " at " << i;
          if (cost_ns(a.us) == cost_ns(b.us) && index(a) < static_cast<long>(order.size()) &&
              index(b) < static_cast<long>(order.size()))
            EXPECT_LT(index(a), index(b)) << op_name(op) << " " << bytes << " at " << i;
        }
      }
  }
}

// Under latency only, an allreduce of 8 ranks on one node costs at least
// lg 8 = 3 steps; recursive doubling takes exactly 3, so the winner costs 3.
TEST(Decide, AKnownWinnerUnderASyntheticModel) {
  const Figures f = latency_only();
  Fixture fx({8}, "slot", &f);
  const Decision d = decide_class(fx.in, Op::kAllreduce, 8, true);
  EXPECT_NEAR(d.chosen().us, 3.0, 1e-6) << candidate_text(d.chosen().candidate);
  const auto rd = std::find_if(d.ranked.begin(), d.ranked.end(), [](const Costed& c) {
    return candidate_text(c.candidate) == "flat:recursive_doubling";
  });
  ASSERT_NE(rd, d.ranked.end());
  EXPECT_NEAR(rd->us, 3.0, 1e-6);
  const auto ring = std::find_if(d.ranked.begin(), d.ranked.end(),
                                 [](const Costed& c) { return candidate_text(c.candidate) == "flat:ring"; });
  ASSERT_NE(ring, d.ranked.end());
  EXPECT_NEAR(ring->us, 14.0, 1e-6);  // 2 (p - 1) steps
}

TEST(Decide, TiesGoToTheEarlierCandidateAndDecisionsRepeat) {
  const Figures f = latency_only();
  Fixture fx({2, 2, 2, 2}, "slot", &f);
  for (Op op : {Op::kAllreduce, Op::kBcast, Op::kAllgather}) {
    const Decision a = decide_class(fx.in, op, 64, true);
    const Decision b = decide_class(fx.in, op, 64, true);
    EXPECT_EQ(names(a), names(b)) << op_name(op);
    const SimCall call = bench_call(op, class_bytes(size_class(64)), fx.L.size, 0);
    std::vector<std::string> order;
    for (const MethodChoice& c : candidates_for(fx.L, fx.F, call, fx.in.scope)) order.push_back(candidate_text(c));
    auto index = [&](const Costed& c) {
      return std::find(order.begin(), order.end(), candidate_text(c.candidate)) - order.begin();
    };
    // (Segments the walk added come after the list, in the order tried.)
    for (size_t i = 1; i < a.ranked.size(); ++i)
      if (a.ranked[i].us >= 0 && a.ranked[i].us == a.ranked[i - 1].us &&
          index(a.ranked[i]) < static_cast<std::ptrdiff_t>(order.size())) {
        EXPECT_LT(index(a.ranked[i - 1]), index(a.ranked[i])) << op_name(op) << " tie at " << i;
      }
  }
}

TuningEntry entry_for(const Layout& L, Op op, const std::string& method, double us, int64_t segment = 0) {
  TuningEntry e;
  e.layout = layout_key(L);
  e.machine = builtin_machine();
  TunedRange r;
  std::string error;
  EXPECT_TRUE(parse_method(method, &r.method, &error)) << error;
  r.predicted_us = us;
  r.segment_bytes = segment;
  r.measured = true;
  e.ranges[static_cast<int>(op)] = {r};
  return e;
}

// A segmented method is a candidate at its default segment (named 0) and
// at a quarter and four times it, as the runtime bounds them, each once: a
// flat pipeline as a segmented composition; an unsegmented composition
// once, and a forced segment alone.
TEST(Decide, SegmentedMethodsAreCandidatesAtThreeSegments) {
  Fixture fx({2, 2, 2, 2});
  const SimCall call = bench_call(Op::kBcast, 1 << 22, fx.L.size, 0);
  const HierComposition* piped = find_composition(Op::kBcast, "bcast_pipelined");
  ASSERT_NE(piped, nullptr);
  const int64_t def = composition_default_segment_bytes(*piped, fx.L, call.args, call.unit_bytes, nullptr);
  ASSERT_GT(def, 0);
  const auto segments_of = [&](Method::Kind kind, const std::string& name, const CandidateScope& scope) {
    std::vector<int64_t> segs;
    for (const MethodChoice& c : candidates_for(fx.L, fx.F, call, scope))
      if (c.method.kind == kind && c.method.name == name && c.method.inter.empty()) segs.push_back(c.segment_bytes);
    return segs;
  };
  EXPECT_EQ(segments_of(Method::kHier, "bcast_pipelined", {}), (std::vector<int64_t>{0, def / 4, def * 4}));
  EXPECT_EQ(segments_of(Method::kHier, "bcast", {}), std::vector<int64_t>{0});
  EXPECT_EQ(segments_of(Method::kFlat, "chain", {}).size(), 3u);
  CandidateScope forced;
  forced.forced_segment = 8192;
  EXPECT_EQ(segments_of(Method::kHier, "bcast_pipelined", forced), std::vector<int64_t>{8192});
  // Each leaders' algorithm of the pipelined composition at each segment.
  int chains = 0;
  for (const MethodChoice& c : candidates_for(fx.L, fx.F, call, {}))
    chains += c.method.name == "bcast_pipelined" && c.method.inter == "chain";
  EXPECT_EQ(chains, 3);
}

// Segments of the whole message or more run it unsegmented, all alike: a
// short message's segmented methods are candidates once, and their
// schedules are those of any segment as long as the message.
TEST(Decide, SegmentsPastTheMessageAreOneCandidate) {
  Fixture fx({2, 2, 2, 2});
  const SimCall call = bench_call(Op::kAllreduce, 64, fx.L.size, 0);
  std::map<std::string, int> seen;
  for (const MethodChoice& c : candidates_for(fx.L, fx.F, call, {})) {
    EXPECT_EQ(++seen[method_text(c.method)], 1) << candidate_text(c);
    EXPECT_EQ(c.segment_bytes, 0) << candidate_text(c);
  }
  const auto cost = [&](const MethodChoice& c) {
    return model_cost(fx.L, fx.F, call, c, nullptr, builtin_figures(), int64_t{1} << 20, nullptr).us;
  };
  MethodChoice whole;
  whole.method.kind = Method::kFlat;
  whole.method.name = "pipelined_binary_tree";
  MethodChoice longer = whole;
  longer.segment_bytes = 1 << 20;
  EXPECT_GT(cost(whole), 0);
  EXPECT_EQ(cost(whole), cost(longer));
  // A long message keeps its three.
  const SimCall big = bench_call(Op::kAllreduce, 1 << 24, fx.L.size, 0);
  int tree = 0;
  for (const MethodChoice& c : candidates_for(fx.L, fx.F, big, {})) tree += candidate_text(c).rfind("flat:pipelined_binary_tree", 0) == 0;
  EXPECT_EQ(tree, 3);
}

// Past its three segments a segmented method's segment walks while the
// model finds it cheaper: the cheapest segment of every method near the
// winner is no costlier than twice it, and half of it is costlier or
// gains under 3% (decide.cc kSmallerGain), or the bounds leave no such
// segment.
TEST(Decide, ASegmentIsWalkedToTheModelsCheapest) {
  Fixture fx({2, 2, 2, 2});
  const Figures& fig = builtin_figures();
  for (Op op : {Op::kReduce, Op::kBcast, Op::kAllreduce}) {
    for (int64_t bytes : {int64_t{1} << 16, int64_t{1} << 20, int64_t{1} << 22}) {
      const SimCall call = bench_call(op, bytes, fx.L.size, 0);
      const Decision d = decide(fx.in, call);
      const double best = d.chosen().us;
      for (const Costed& k : d.ranked) {
        if (k.us < 0 || k.us > 1.5 * best) continue;
        bool cheapest = true;
        for (const Costed& o : d.ranked)
          if (o.us >= 0 && o.candidate.method == k.candidate.method && o.us < k.us) cheapest = false;
        if (!cheapest) continue;
        for (bool down : {true, false}) {
          MethodChoice next;
          if (!segment_step(fx.L, call, {}, k.candidate, down, &next)) continue;
          auto it = std::find_if(d.ranked.begin(), d.ranked.end(),
                                 [&](const Costed& c) { return c.candidate == next; });
          const double us = it != d.ranked.end()
                                ? it->us
                                : model_cost(fx.L, fx.F, call, next, nullptr, fig, fx.in.max_steps).us;
          const std::string where = std::string(op_name(op)) + " " + std::to_string(bytes) + ": " +
                                    candidate_text(next) + " against " + candidate_text(k.candidate);
          EXPECT_TRUE(it != d.ranked.end() || down) << where << " untried";
          EXPECT_GE(us, down ? 0.97 * k.us : k.us) << where;
        }
      }
    }
  }
  // On 4x2 the pipelines of 4 MiB walk to segments beyond their three.
  for (Op op : {Op::kBcast, Op::kReduce}) {
    const SimCall call = bench_call(op, 1 << 22, fx.L.size, 0);
    const std::vector<MethodChoice> three = candidates_for(fx.L, fx.F, call, {});
    const Decision d = decide(fx.in, call);
    const bool walked = std::any_of(d.ranked.begin(), d.ranked.end(), [&](const Costed& k) {
      return k.candidate.method.kind != Method::kNative &&
             std::find(three.begin(), three.end(), k.candidate) == three.end();
    });
    EXPECT_TRUE(walked) << op_name(op);
  }
  // A knob's segment is the only one.
  const SimCall call = bench_call(Op::kReduce, 1 << 20, fx.L.size, 0);
  const HierComposition* piped = find_composition(Op::kReduce, "reduce_pipelined");
  ASSERT_NE(piped, nullptr);
  const int64_t def = composition_default_segment_bytes(*piped, fx.L, call.args, call.unit_bytes, nullptr);
  MethodChoice c;
  c.method = Method{Method::kHier, "reduce_pipelined", ""};
  MethodChoice next;
  CandidateScope forced;
  forced.forced_segment = 8192;
  EXPECT_FALSE(segment_step(fx.L, call, forced, c, true, &next));
  EXPECT_TRUE(segment_step(fx.L, call, {}, c, true, &next));
  EXPECT_EQ(next.segment_bytes, def / 2);
  c.method.name = "reduce";
  EXPECT_FALSE(segment_step(fx.L, call, {}, c, true, &next));
}

// A rooted call is costed at its first and last rank, averaged: a flat
// tree numbered from its root crosses the links of a layout by slot less
// from rank 0 than from the last rank.  An unrooted call at rank 0 alone.
TEST(Decide, RootedCallsAreCostedAtTheFirstAndTheLastRank) {
  Fixture fx({4, 4});
  const Figures& fig = builtin_figures();
  const auto simulated = [&](Op op, const char* name, int root) {
    const SimCall call = bench_call(op, 1 << 20, fx.L.size, root);
    MethodChoice c;
    c.method = Method{Method::kFlat, name, ""};
    CandidateSchedules cs;
    std::string why;
    EXPECT_TRUE(candidate_schedules(fx.L, fx.F, call, c, nullptr, model_phases(fig), int64_t{1} << 30, &cs, &why))
        << why;
    SimResult res;
    EXPECT_TRUE(simulate(SimInput{&cs.schedules, &fx.L.node_of, call.unit_bytes}, fig.model, &res, &why)) << why;
    return res.time_us;
  };
  const auto modelled = [&](Op op, const char* name) {
    MethodChoice c;
    c.method = Method{Method::kFlat, name, ""};
    return model_cost(fx.L, fx.F, bench_call(op, 1 << 20, fx.L.size, 0), c, nullptr, fig, int64_t{1} << 30).us;
  };
  const double first = simulated(Op::kBcast, "binomial", 0), last = simulated(Op::kBcast, "binomial", 7);
  EXPECT_GT(last, first);
  EXPECT_NEAR(modelled(Op::kBcast, "binomial"), (first + last) / 2, 1e-6 * first);
  EXPECT_NEAR(modelled(Op::kAllreduce, "ring"), simulated(Op::kAllreduce, "ring", 0), 1e-6 * first);
}

TEST(Decide, TheFilesMeasurementReplacesTheModelAndWins) {
  Fixture fx({2, 2, 2, 2});
  const TuningEntry e = entry_for(fx.L, Op::kAllreduce, "flat:ring", 1e6);
  fx.in.tuning = &e;
  const Decision d = decide_class(fx.in, Op::kAllreduce, 1024, true);
  EXPECT_EQ(d.source, Source::kFile);
  EXPECT_EQ(candidate_text(d.chosen().candidate), "flat:ring");
  EXPECT_EQ(d.chosen().us, 1e6);  // measured, slower than every prediction: still the file's
  EXPECT_EQ(d.chosen().source, Source::kFile);
  // Native from the file (at 1 KiB on 8 ranks the model costs it as coll/tuned's pick).
  const TuningEntry n = entry_for(fx.L, Op::kBcast, "native", 5);
  fx.in.tuning = &n;
  const Decision dn = decide_class(fx.in, Op::kBcast, 1024, true);
  EXPECT_EQ(candidate_text(dn.chosen().candidate), "native");
  EXPECT_EQ(dn.source, Source::kFile);
  // Mode flat takes flat methods only: native and compositions give way.
  fx.in.scope.hier = false;
  EXPECT_EQ(decide_class(fx.in, Op::kBcast, 1024, true).source, Source::kModel);
  // An operation the file does not name, and a layout without an entry:
  // the model.
  fx.in.scope.hier = true;
  EXPECT_EQ(decide_class(fx.in, Op::kReduce, 1024, true).source, Source::kModel);
  fx.in.tuning = nullptr;
  EXPECT_EQ(decide_class(fx.in, Op::kBcast, 1024, true).source, Source::kModel);
}

TEST(Decide, AFileMethodThatDoesNotFitGivesWayToTheModel) {
  Fixture fx({2, 2, 2});  // 6 ranks: recursive halving fits, but not non-commutative operations
  const TuningEntry e = entry_for(fx.L, Op::kReduceScatter, "flat:recursive_halving", 1);
  fx.in.tuning = &e;
  EXPECT_EQ(decide_class(fx.in, Op::kReduceScatter, 1024, true).source, Source::kFile);
  const Decision d = decide_class(fx.in, Op::kReduceScatter, 1024, false);
  EXPECT_EQ(d.source, Source::kModel);
  EXPECT_NE(candidate_text(d.chosen().candidate), "flat:recursive_halving");
  EXPECT_NE(d.note.find("does not fit"), std::string::npos);
}

TEST(Decide, KnobsWinOverFileAndModel) {
  Fixture fx({2, 2, 2, 2});
  const TuningEntry e = entry_for(fx.L, Op::kAllreduce, "flat:ring", 1);
  fx.in.tuning = &e;
  fx.in.forced.algorithm = "recursive_doubling";
  Decision d = decide_class(fx.in, Op::kAllreduce, 1024, true);
  EXPECT_EQ(d.source, Source::kKnob);
  EXPECT_EQ(candidate_text(d.chosen().candidate), "flat:recursive_doubling");
  EXPECT_EQ(d.chosen().source, Source::kKnob);
  EXPECT_GE(d.chosen().us, 0);  // still costed by the model
  // A composition and a leaders' algorithm.
  fx.in.forced = Forced{"", "allreduce", "ring"};
  d = decide_class(fx.in, Op::kAllreduce, 1024, true);
  EXPECT_EQ(candidate_text(d.chosen().candidate), "hier:allreduce inter=ring");
  EXPECT_EQ(d.source, Source::kKnob);
  // Forced but unfit (recursive halving needs a commutative operation):
  // the decision without the knob, and a note.
  Fixture six({2, 2, 2});
  const Decision free = decide_class(six.in, Op::kReduceScatter, 64, false);
  six.in.forced.algorithm = "recursive_halving";
  const Decision unfit = decide_class(six.in, Op::kReduceScatter, 64, false);
  EXPECT_EQ(candidate_text(unfit.chosen().candidate), candidate_text(free.chosen().candidate));
  EXPECT_EQ(unfit.note, "algorithm recursive_halving does not fit this call");
  EXPECT_EQ(unfit.source, Source::kModel);
}

// A forced method that fits, costed alone (rank_all false), is the same
// choice at the same cost as in the whole ranking; a knob that needs the
// winner (a leaders' algorithm alone) or does not fit still ranks all.
TEST(Decide, ForcedAloneAsInTheRanking) {
  Fixture fx({3, 1, 2, 2}, "node");
  for (const Forced& f : {Forced{"ring", "", ""}, Forced{"", "allreduce", ""}, Forced{"", "allreduce", "ring"},
                          Forced{"", "allreduce_pipelined", ""}})
    for (int64_t bytes : {int64_t{8}, int64_t{1} << 20}) {
      fx.in.forced = f;
      fx.in.rank_all = true;
      const Decision all = decide_class(fx.in, Op::kAllreduce, bytes, true);
      fx.in.rank_all = false;
      const Decision alone = decide_class(fx.in, Op::kAllreduce, bytes, true);
      EXPECT_EQ(candidate_text(alone.chosen().candidate), candidate_text(all.chosen().candidate));
      EXPECT_EQ(cost_ns(alone.chosen().us), cost_ns(all.chosen().us));
      EXPECT_EQ(alone.source, Source::kKnob);
      EXPECT_EQ(alone.ranked.size(), 1u);
      EXPECT_GT(all.ranked.size(), 1u);
    }
  fx.in.forced = Forced{"", "", "ring"};
  EXPECT_GT(decide_class(fx.in, Op::kAllreduce, 8, true).ranked.size(), 1u);
  fx.in.forced = Forced{"recursive_halving", "", ""};  // commutative only
  const Decision unfit = decide_class(fx.in, Op::kReduceScatter, 64, false);
  EXPECT_GT(unfit.ranked.size(), 1u);
  EXPECT_EQ(unfit.note, "algorithm recursive_halving does not fit this call");
}

TEST(Decide, NothingCostedLeavesTheCallToTheRules) {
  Fixture fx({2, 2, 2, 2});
  fx.in.max_steps = 1;  // no candidate's schedules fit
  const Decision d = decide_class(fx.in, Op::kAllreduce, 1 << 20, true);
  EXPECT_EQ(d.source, Source::kRules);
  EXPECT_EQ(d.chosen().us, -1);
  EXPECT_EQ(candidate_text(d.chosen().candidate), candidate_text(rules_candidate(fx.L, fx.F, bench_call(Op::kAllreduce, 1 << 20, 8, 0), fx.in.scope)));
}

TEST(Decide, TheFiguresDecide) {
  // The same layout and call under two machines: with latency only the
  // fewest steps win; with a slow link and no latency, the fewest bytes.
  const Figures lat = latency_only();
  Figures bw;
  bw.model.alpha_us = 0;
  bw.model.shm_alpha_us = 0;
  bw.model.bandwidth_gbps = 0.01;
  bw.model.shm_bandwidth_gbps = 0.01;
  bw.model.reduce_gbps = 1e9;
  Fixture a({16}, "slot", &lat), b({16}, "slot", &bw);
  const Decision da = decide_class(a.in, Op::kAllreduce, 4 << 20, true);
  const Decision db = decide_class(b.in, Op::kAllreduce, 4 << 20, true);
  EXPECT_NE(candidate_text(da.chosen().candidate), candidate_text(db.chosen().candidate));
  EXPECT_EQ(builtin_figures().source.rfind("built-in", 0), 0u);
  EXPECT_EQ(figures_from_machine(builtin_machine()).model.alpha_us, builtin_machine().inter_latency_us);
}

TEST(Decide, SizeClassesAreHalfOctaves) {
  EXPECT_EQ(size_class(0), 0);
  EXPECT_EQ(class_bytes(size_class(1)), 1);
  for (int64_t b : {2, 3, 5, 1000, 1024, 1500, 1536, 4 << 20, (4 << 20) + 1}) {
    const int64_t lo = class_bytes(size_class(b));
    EXPECT_LE(lo, b);
    EXPECT_GT(lo * 3, b * 2 - 1) << b;  // within a half octave below
    EXPECT_EQ(size_class(lo), size_class(b));
  }
  EXPECT_EQ(class_bytes(size_class(1 << 20)), 1 << 20);
  EXPECT_EQ(class_bytes(size_class(3 << 19)), 3 << 19);
}

// coll/tuned's fixed rules (Open MPI 4.1, coll_tuned_decision_fixed.c) as
// native_algorithm reads them, at points of its table: commutativity,
// communicator-size brackets, byte cuts, and what the registry runs for
// each pick.
TEST(NativeRules, CollTunedsPickAndItsShapeHere) {
  struct Case {
    Op op;
    int p;
    int64_t bytes;
    bool commutative;
    const char* ompi;
    const char* as;  // "" where not costed
  };
  const Case cases[] = {
      {Op::kAllreduce, 8, 1 << 20, true, "rabenseifner", "flat:rabenseifner"},
      {Op::kAllreduce, 8, 4096, true, "recursive_doubling", "flat:recursive_doubling"},
      {Op::kAllreduce, 2, 4, true, "ring", "flat:ring"},
      {Op::kAllreduce, 300, 1024, true, "nonoverlapping", "flat:reduce_bcast"},
      {Op::kAllreduce, 2, 1 << 20, false, "basic_linear", ""},
      {Op::kAllreduce, 6, 1 << 22, false, "recursive_doubling", "flat:recursive_doubling"},
      {Op::kAllreduce, 8, 1 << 22, false, "nonoverlapping", "flat:reduce_bcast"},
      {Op::kBcast, 8, 4096, true, "binary_tree", "flat:pipelined_binary_tree seg=4K"},
      {Op::kBcast, 6, 65536, true, "basic_linear", "flat:linear seg=64K"},
      {Op::kBcast, 6, 1 << 22, true, "chain", ""},
      {Op::kBcast, 4, 1024, true, "binary_tree", "flat:pipelined_binary_tree seg=1K"},
      {Op::kBcast, 64, 1024, true, "knomial", ""},
      {Op::kBcast, 24, 1 << 21, true, "scatter_allgather", "flat:scatter_recursive_doubling"},
      {Op::kReduce, 8, 1 << 20, true, "binomial", "flat:binomial"},
      {Op::kReduce, 6, 1 << 20, true, "linear", "flat:gather_reduce"},
      {Op::kReduce, 8, 1 << 20, false, "in-order_binary", "flat:pipelined_binary_tree seg=1024K"},
      {Op::kAllgather, 8, 1024, true, "recursive_doubling", "flat:recursive_doubling"},
      {Op::kAllgather, 6, 1024, true, "recursive_doubling", "flat:bruck"},  // not a power of two
      {Op::kAllgather, 48, 4096, true, "neighbor", ""},
      {Op::kAlltoall, 8, 1024, true, "linear_sync", "flat:scattered"},
      {Op::kAlltoall, 48, 64, true, "modified_bruck", "flat:bruck"},
      {Op::kBarrier, 8, 0, true, "recursive_doubling", "flat:recursive_doubling"},
      {Op::kBarrier, 100, 0, true, "bruck", "flat:dissemination"},
      {Op::kBarrier, 6, 0, true, "linear", ""},
      {Op::kGather, 8, 1024, true, "binomial", "flat:binomial"},
      {Op::kScatter, 6, 1 << 16, true, "linear_nb", "flat:linear"},
      {Op::kScan, 8, 1024, true, "basic_linear", "flat:chain seg=1K"},
  };
  for (const Case& c : cases) {
    SimCall call = bench_call(c.op, c.bytes, c.p, 0);
    call.args.commutative = c.commutative;
    const NativeAlgorithm n = native_algorithm(call);
    const std::string where = std::string(op_name(c.op)) + " p=" + std::to_string(c.p) + " " +
                              std::to_string(c.bytes) + (c.commutative ? "" : " non-commutative");
    EXPECT_EQ(n.ompi_name, c.ompi) << where;
    EXPECT_EQ(n.costed, *c.as != 0) << where;
    if (n.costed) {
      EXPECT_EQ(candidate_text(n.as), c.as) << where;
    }
  }
  // reduce_scatter and the v-variants: no rule here.
  EXPECT_EQ(native_algorithm(bench_call(Op::kReduceScatter, 1024, 8, 0)).ompi_name, "");
  EXPECT_EQ(native_algorithm(bench_call(Op::kAllgatherv, 1024, 8, 0)).ompi_name, "");
}

// Native is costed as its pick's schedule: the same cost as that flat
// candidate, after it on the tie; left uncosted where the pick has no
// shape here; absent in mode flat; a file's measurement replaces it.
TEST(Decide, NativeIsCostedAsCollTunedsPick) {
  Fixture fx({2, 2, 2, 2});
  auto find = [](const Decision& d, const std::string& text) {
    return std::find_if(d.ranked.begin(), d.ranked.end(),
                        [&](const Costed& c) { return candidate_text(c.candidate) == text; });
  };
  const Decision d = decide_class(fx.in, Op::kAllreduce, 1 << 20, true);  // 8 ranks: Rabenseifner
  const auto native = find(d, "native"), ours = find(d, "flat:rabenseifner");
  ASSERT_NE(native, d.ranked.end());
  ASSERT_NE(ours, d.ranked.end());
  EXPECT_EQ(native->us, ours->us);
  EXPECT_LT(ours - d.ranked.begin(), native - d.ranked.begin());
  EXPECT_EQ(native->source, Source::kModel);
  EXPECT_NE(native->note.find("coll/tuned's rabenseifner"), std::string::npos) << native->note;
  EXPECT_NE(candidate_text(d.chosen().candidate), "native");
  // Bcast of 4 MiB on 6 ranks: coll/tuned's multi-chain, not costed.
  Fixture six({2, 2, 2});
  const Decision b = decide_class(six.in, Op::kBcast, 1 << 22, true);
  const auto chain = find(b, "native");
  ASSERT_NE(chain, b.ranked.end());
  EXPECT_LT(chain->us, 0);
  EXPECT_NE(chain->note.find("no schedule"), std::string::npos) << chain->note;
  // Mode flat: flat methods only.
  fx.in.scope.hier = false;
  const Decision flat = decide_class(fx.in, Op::kAllreduce, 1 << 20, true);
  EXPECT_EQ(find(flat, "native"), flat.ranked.end());
  fx.in.scope.hier = true;
  // A file's measurement of native replaces the model's cost.
  const TuningEntry e = entry_for(fx.L, Op::kAllreduce, "native", 3);
  fx.in.tuning = &e;
  const Decision f = decide_class(fx.in, Op::kAllreduce, 1 << 20, true);
  EXPECT_EQ(candidate_text(f.chosen().candidate), "native");
  EXPECT_EQ(f.chosen().source, Source::kFile);
  EXPECT_EQ(std::count_if(f.ranked.begin(), f.ranked.end(),
                          [](const Costed& c) { return c.candidate.method.kind == Method::kNative; }),
            1);
}

TEST(Explain, TableAndCsvShowEveryCandidateWithTheWinnerFirst) {
  SimOptions opt;
  opt.ranks_per_node = {2, 2, 2, 2};
  opt.ops = {"allreduce", "barrier"};
  opt.sizes = {8, 65536};
  const Layout L = sim_layout(opt);
  const std::vector<ExplainRow> rows = explain(opt, L, builtin_figures(), nullptr);
  ASSERT_EQ(rows.size(), 3u);  // barrier once
  std::ostringstream csv, table;
  write_explain_csv(csv, rows);
  print_explain(table, rows);
  std::istringstream lines(csv.str());
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "op,bytes,rank,method,predicted_us,source");
  std::getline(lines, line);
  const Decision& first = rows[0].decision;
  EXPECT_EQ(line.rfind("allreduce,8,1,\"" + candidate_text(first.chosen().candidate) + "\",", 0), 0u) << line;
  EXPECT_NE(line.find(",model"), std::string::npos);
  size_t n = 1;
  while (std::getline(lines, line)) ++n;
  size_t candidates = 0;
  for (const ExplainRow& r : rows) candidates += r.decision.ranked.size();
  EXPECT_EQ(n, candidates);
  EXPECT_NE(table.str().find("allreduce 8 B: " + candidate_text(first.chosen().candidate) + " (model)"),
            std::string::npos)
      << table.str();
}

}  // namespace
}  // namespace hiercoll
