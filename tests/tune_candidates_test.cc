// The tuner's candidate methods (tune/candidates.h) and the model-guided
// choice among them (tune/guided.h) on synthetic layouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "decide/candidates.h"
#include "hier/hier_registry.h"
#include "select/flat_rules.h"
#include "decide/decide.h"
#include "tune/candidates.h"
#include "tune/guided.h"

namespace hctune {
namespace {

using hiercoll::Method;
using hiercoll::Op;

hiercoll::Layout nodes_by_slot(int nodes, int ppn) {
  std::vector<int> key, socket;
  for (int n = 0; n < nodes; ++n)
    for (int r = 0; r < ppn; ++r) key.push_back(n), socket.push_back(0);
  return hiercoll::make_layout(key, socket, "none");
}

std::vector<std::string> names(const std::vector<TuneCandidate>& c) {
  std::vector<std::string> v;
  for (const TuneCandidate& t : c) v.push_back(hiercoll::method_text(t.method));
  return v;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(SegmentSizes, PowersOfTwoBelowTheMessageLargestFirst) {
  EXPECT_EQ(segment_sizes(8192, 4), (std::vector<int64_t>{4096, 2048, 1024}));
  EXPECT_EQ(segment_sizes(8193, 1), (std::vector<int64_t>{8192, 4096, 2048, 1024}));
  EXPECT_EQ(segment_sizes(1024, 4), (std::vector<int64_t>{0}));  // nothing below the message: unsegmented
  // Multiples of the unit only (a 3 KiB block: no power of two is).
  EXPECT_EQ(segment_sizes(1 << 20, 3072), (std::vector<int64_t>{0}));
}

TEST(Candidates, NativeEveryFittingFlatAlgorithmAndEveryCompositionWithItsLeaderAlgorithms) {
  const hiercoll::Layout L = nodes_by_slot(4, 2);
  const std::vector<TuneCandidate> c = candidates(Op::kAllreduce, L, 1 << 20, 4, false);
  const std::vector<std::string> n = names(c);
  EXPECT_EQ(n.front(), "native");
  for (const hiercoll::Algorithm* a : hiercoll::algorithms_for(Op::kAllreduce))
    EXPECT_TRUE(has(n, std::string("flat:") + a->name)) << a->name;  // 8 ranks: all fit
  EXPECT_TRUE(has(n, "hier:allreduce inter=recursive_doubling"));
  EXPECT_TRUE(has(n, "hier:allreduce_columns inter=ring"));
  EXPECT_TRUE(has(n, "hier:allreduce_pipelined inter=twotree"));
  // Each method once.
  std::vector<std::string> sorted = n;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  // Segment sizes only where the method segments.
  for (const TuneCandidate& t : c) {
    bool segments = false;
    if (t.method.kind == Method::kFlat) segments = hiercoll::find_algorithm(Op::kAllreduce, t.method.name)->segmented;
    if (t.method.kind == Method::kHier) segments = hiercoll::find_composition(Op::kAllreduce, t.method.name)->segmented;
    EXPECT_EQ(t.segments.size() > 1, segments) << hiercoll::method_text(t.method);
    EXPECT_TRUE(std::is_sorted(t.segments.rbegin(), t.segments.rend())) << hiercoll::method_text(t.method);
    if (!segments) {
      EXPECT_EQ(t.segments, std::vector<int64_t>{0});
    }
  }
}

// The segments tried are the ones the runtime runs: each as the bounds
// leave it, none twice (from 1 MiB the bounds raise the small powers of
// two to one segment size).
TEST(Candidates, SegmentsAreTheRuntimes) {
  const hiercoll::Layout L = nodes_by_slot(4, 2);
  for (int64_t bytes : {int64_t{64} << 10, int64_t{1} << 20, int64_t{16} << 20})
    for (const TuneCandidate& t : candidates(Op::kBcast, L, bytes, 1, true)) {
      std::vector<int64_t> seen;
      for (int64_t s : t.segments) {
        if (s == 0) continue;
        hiercoll::CollArgs a;
        a.op = Op::kBcast;
        a.size = L.size;
        a.count = bytes;
        EXPECT_EQ(hiercoll::bounded_seg_units(a, 1, s), s) << hiercoll::method_text(t.method) << " " << s;
        EXPECT_EQ(std::find(seen.begin(), seen.end(), s), seen.end()) << s << " twice";
        seen.push_back(s);
      }
    }
  // 16 MiB: every power of two below 32 KiB runs as 32 KiB (segments of
  // at least kMinSegmentBytes), so one candidate stands for them all.
  const std::vector<TuneCandidate> big = candidates(Op::kBcast, L, int64_t{16} << 20, 1, true);
  const auto chain = std::find_if(big.begin(), big.end(), [](const TuneCandidate& t) {
    return hiercoll::method_text(t.method) == "flat:chain";
  });
  ASSERT_NE(chain, big.end());
  EXPECT_EQ(chain->segments.back(), hiercoll::kMinSegmentBytes);
}

// The methods are the ones the runtime's decision weighs, plus native and
// the arrival-order trees.
TEST(Candidates, MethodsAreTheDecisions) {
  const hiercoll::Layout L = nodes_by_slot(4, 2);
  hiercoll::SimCall call;
  call.args.op = Op::kAllreduce;
  call.args.size = L.size;
  call.args.count = (1 << 20) / 4;
  call.unit_bytes = 4;
  std::vector<std::string> decided;
  for (const hiercoll::MethodChoice& c :
       hiercoll::candidates_for(L, hiercoll::layout_facts(L), call, hiercoll::CandidateScope{}))
    decided.push_back(hiercoll::method_text(c.method));
  for (const std::string& n : names(candidates(Op::kAllreduce, L, 1 << 20, 4, false)))
    if (n != "native") {
      EXPECT_TRUE(has(decided, n)) << n;
    }
}

TEST(Candidates, RootedTreesAlsoInArrivalOrder) {
  const hiercoll::Layout L = nodes_by_slot(4, 2);
  const std::vector<std::string> b = names(candidates(Op::kBcast, L, 1 << 20, 1, true));
  EXPECT_TRUE(has(b, "flat:binomial dynamic"));
  EXPECT_TRUE(has(b, "flat:pipelined_binary_tree dynamic"));
  EXPECT_FALSE(has(b, "flat:scatter_ring dynamic"));  // no tree
  const std::vector<std::string> g = names(candidates(Op::kGather, L, 4096, 4096, true));
  EXPECT_TRUE(has(g, "flat:binomial dynamic"));
  for (const std::string& n : names(candidates(Op::kAllreduce, L, 1 << 20, 4, false)))
    EXPECT_EQ(n.find("dynamic"), std::string::npos) << n;
}

TEST(Candidates, OneNodeHasNoCompositionAndRootedCallsSkipRootZeroOnlyAlgorithms) {
  const hiercoll::Layout one = nodes_by_slot(1, 4);
  for (const TuneCandidate& t : candidates(Op::kBcast, one, 65536, 1, true)) {
    EXPECT_NE(t.method.kind, Method::kHier);
    if (t.method.kind == Method::kFlat) {
      EXPECT_FALSE(hiercoll::find_algorithm(Op::kBcast, t.method.name)->restrictions & hiercoll::kRootZeroOnly);
    }
  }
  // Non-power-of-two groups leave out power-of-two-only algorithms.
  const hiercoll::Layout six = nodes_by_slot(3, 2);
  for (const TuneCandidate& t : candidates(Op::kAllreduce, six, 4096, 4, false)) {
    if (t.method.kind == Method::kFlat) {
      EXPECT_FALSE(hiercoll::find_algorithm(Op::kAllreduce, t.method.name)->restrictions & hiercoll::kPow2Only);
    }
  }
}

std::vector<hiercoll::Candidate> search_candidates(const std::vector<TuneCandidate>& c) {
  std::vector<hiercoll::Candidate> v;
  for (const TuneCandidate& t : c) v.push_back({hiercoll::method_text(t.method), t.segments});
  return v;
}

// The guided choice is the model's first methods within kGuidedRatio of its
// best, in its order, at most kGuidedMethods, no two predicted alike, each
// one of the tuner's candidates with segments near the model's.
TEST(Guided, TheModelsFirstMethodsNearItsSegments) {
  const hiercoll::Figures& fig = hiercoll::builtin_figures();
  for (const hiercoll::Layout& L : {nodes_by_slot(4, 2), nodes_by_slot(2, 4), nodes_by_slot(8, 1)})
    for (Op op : {Op::kAllreduce, Op::kBcast, Op::kReduce})
      for (int64_t bytes : {int64_t{1024}, int64_t{1} << 20, int64_t{4} << 20}) {
        const int64_t unit = op == Op::kBcast ? 1 : 4;
        const std::vector<hiercoll::Candidate> all =
            search_candidates(candidates(op, L, bytes, unit, op != Op::kAllreduce));
        const std::vector<hiercoll::Candidate> g = model_guided(all, op, L, fig, bytes);
        ASSERT_FALSE(g.empty());
        EXPECT_LE(static_cast<int>(g.size()), kGuidedMethods);
        const hiercoll::LayoutFacts F = hiercoll::layout_facts(L);
        hiercoll::DecideInput in;
        in.layout = &L;
        in.facts = &F;
        in.figures = &fig;
        const hiercoll::Decision d = hiercoll::decide_class(in, op, bytes, true);
        double best = -1;
        size_t last_place = 0;
        std::vector<double> costs;
        for (const hiercoll::Candidate& c : g) {
          const auto in_all = std::find_if(all.begin(), all.end(), [&](const auto& a) { return a.name == c.name; });
          ASSERT_NE(in_all, all.end()) << c.name;
          ASSERT_FALSE(c.segments.empty()) << c.name;
          for (int64_t s : c.segments)
            EXPECT_NE(std::find(in_all->segments.begin(), in_all->segments.end(), s), in_all->segments.end());
          // Its first place in the model's ranking: after the previous one's.
          const auto place = std::find_if(d.ranked.begin(), d.ranked.end(), [&](const hiercoll::Costed& k) {
            return hiercoll::method_text(k.candidate.method) == c.name;
          });
          ASSERT_NE(place, d.ranked.end()) << c.name;
          const size_t at = static_cast<size_t>(place - d.ranked.begin());
          EXPECT_TRUE(costs.empty() || at > last_place) << c.name;
          last_place = at;
          if (best < 0) best = place->us;
          EXPECT_LE(place->us, best * kGuidedRatio) << c.name;
          EXPECT_EQ(std::find(costs.begin(), costs.end(), place->us), costs.end()) << c.name << " predicted alike";
          costs.push_back(place->us);
          const int64_t seg = place->candidate.segment_bytes;
          if (seg > 0 && in_all->segments.size() > 1)
            for (int64_t s : c.segments) EXPECT_TRUE(s == 0 || (s >= seg / 2 && s <= seg * 2) || c.segments.size() == 1);
        }
      }
}

TEST(Guided, NoRankedCandidateKeepsThemAll) {
  const hiercoll::Layout L = nodes_by_slot(4, 2);
  const std::vector<hiercoll::Candidate> none = {{"flat:no_such_method", {0}}};
  EXPECT_EQ(model_guided(none, Op::kAllreduce, L, hiercoll::builtin_figures(), 1 << 20).size(), 1u);
}

}  // namespace
}  // namespace hctune
