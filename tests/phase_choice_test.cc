// A composition's open phases chosen by the model of the machine
// (decide/phase_choice.h): a phase runs the fitting algorithm the model
// finds cheapest on the phase's own group, the choice follows the figures,
// and where every node's ranks share the cores an intra-node phase is
// judged on its nodes' share of them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "decide/figures.h"
#include "decide/model_cost.h"
#include "decide/phase_choice.h"
#include "hier/hier_registry.h"
#include "select/machine.h"
#include "topo/topology.h"

namespace hiercoll {
namespace {

// nodes x ppn, consecutive ranks.
Layout layout_of(int nodes, int ppn) {
  std::vector<int> key;
  for (int n = 0; n < nodes; ++n)
    for (int i = 0; i < ppn; ++i) key.push_back(n);
  return make_layout(key, std::vector<int>(key.size(), 0), "none");
}

CollArgs call_args(int size, Op op, int64_t count) {
  CollArgs a;
  a.op = op;
  a.size = size;
  a.count = count;
  a.commutative = true;
  return a;
}

// The model's time of flat algorithm `a` for `sub` on p nodes of one rank
// (inter) or one node of p ranks, rooted at 0; negative where not costed.
double level_cost(const Figures& fig, bool inter, const CollArgs& sub, const Algorithm& a) {
  std::vector<int> key(sub.size, 0);
  if (inter)
    for (int r = 0; r < sub.size; ++r) key[r] = r;
  const Layout L = make_layout(key, std::vector<int>(sub.size, 0), "none");
  SimCall call;
  call.args = sub;
  call.args.rank = 0;
  call.args.root = 0;
  call.args.seg_units = 0;
  call.unit_bytes = 4;
  MethodChoice c;
  c.method.kind = Method::kFlat;
  c.method.name = a.name;
  return model_cost(L, layout_facts(L), call, c, nullptr, fig, int64_t{1} << 20).us;
}

// Figures whose cores are the papers' (one per rank), so that a phase's
// group is costed alone.
Figures own_cores() {
  Figures f = builtin_figures();
  f.model.cores = 0;
  f.model.cores_shared_by_all = false;
  f.source = "test: a core per rank";
  return f;
}

TEST(PhaseChoice, AnOpenPhaseRunsTheCheapestFittingAlgorithmOnItsGroup) {
  const Figures fig = own_cores();
  const PhaseChooser* model = model_phases(fig);
  struct Shape {
    int nodes, ppn;
  };
  for (Shape s : {Shape{4, 2}, Shape{5, 3}, Shape{8, 4}}) {
    const Layout L = layout_of(s.nodes, s.ppn);
    HierGroup leaders{{}, 0, 0}, node0{{}, 0, 0};
    for (int n = 0; n < s.nodes; ++n) leaders.ranks.push_back(n * s.ppn);
    for (int i = 0; i < s.ppn; ++i) node0.ranks.push_back(i);
    for (Op op : {Op::kAllreduce, Op::kBcast, Op::kReduce}) {
      for (int64_t count : {int64_t{2}, int64_t{2048}, int64_t{1} << 16}) {
        const CollArgs a = call_args(L.size, op, count);
        const HierChoice* c =
            choose_composition(L, layout_facts(L), a, 4, 0, HierForced{op_name(op), ""}, nullptr, nullptr, model);
        ASSERT_NE(c, nullptr) << op_name(op);
        const HierCall call{L, a, *c};
        for (bool inter : {true, false}) {
          const Op phase_op = op == Op::kAllreduce && !inter ? Op::kReduce : op;
          CollArgs sub = call.phase_args(phase_op, inter ? leaders : node0, count);
          const Algorithm& chosen = call.phase_algorithm(inter, &sub);
          const double chosen_us = level_cost(fig, inter, sub, chosen);
          ASSERT_GE(chosen_us, 0) << chosen.name;
          for (const Algorithm* other : algorithms_for(phase_op)) {
            if (!algorithm_fits(*other, sub) || (other->restrictions & kAllCounts)) continue;
            const double us = level_cost(fig, inter, sub, *other);
            if (us < 0) continue;
            EXPECT_LE(chosen_us, us) << op_name(phase_op) << (inter ? " among " : " inside ") << s.nodes << "x"
                                     << s.ppn << ", " << count << ": " << chosen.name << " over " << other->name;
          }
        }
      }
    }
  }
}

// Latency-bound figures choose otherwise than bandwidth-bound ones, each
// its own cheapest; the same figures give the same chooser and the same
// choice every time.
TEST(PhaseChoice, TheChoiceFollowsTheFigures) {
  Figures slow_start = own_cores(), slow_link = own_cores();
  slow_start.model.alpha_us = 5000;
  slow_start.source = "test: latency-bound";
  slow_link.model.alpha_us = 0.1;
  slow_link.model.bandwidth_gbps = 0.01;
  slow_link.source = "test: bandwidth-bound";
  const PhaseChooser* a = model_phases(slow_start);
  const PhaseChooser* b = model_phases(slow_link);
  EXPECT_NE(a, b);
  EXPECT_EQ(a, model_phases(slow_start));
  const CollArgs sub = call_args(8, Op::kAllreduce, 1 << 18);
  const Algorithm* by_latency = a->cheapest(true, 1, sub, 4, nullptr);
  const Algorithm* by_bandwidth = b->cheapest(true, 1, sub, 4, nullptr);
  ASSERT_NE(by_latency, nullptr);
  ASSERT_NE(by_bandwidth, nullptr);
  EXPECT_NE(by_latency, by_bandwidth) << by_latency->name;
  EXPECT_EQ(by_latency, a->cheapest(true, 1, sub, 4, nullptr));
  EXPECT_LE(level_cost(slow_start, true, sub, *by_latency), level_cost(slow_start, true, sub, *by_bandwidth));
  EXPECT_LE(level_cost(slow_link, true, sub, *by_bandwidth), level_cost(slow_link, true, sub, *by_latency));
}

// The emulated cluster's 2 cores serve every node: an intra-node scan of
// 64 KiB on 4 ranks may take recursive doubling (lg p reductions of the
// whole vector a rank) where its node runs alone, not where 16 nodes run
// it at once; with a core per rank the nodes running at once do not
// matter.
TEST(PhaseChoice, SharedCoresWeighTheNodesRunningAtOnce) {
  const CollArgs sub = call_args(4, Op::kScan, 1 << 14);
  const PhaseChooser* shared = model_phases(builtin_figures());
  ASSERT_TRUE(builtin_figures().model.cores_shared_by_all);
  const Algorithm* alone = shared->cheapest(false, 1, sub, 4, nullptr);
  const Algorithm* crowded = shared->cheapest(false, 16, sub, 4, nullptr);
  ASSERT_NE(alone, nullptr);
  ASSERT_NE(crowded, nullptr);
  EXPECT_STREQ(alone->name, "recursive_doubling");
  EXPECT_STRNE(crowded->name, "recursive_doubling");
  const PhaseChooser* own = model_phases(own_cores());
  EXPECT_EQ(own->cheapest(false, 1, sub, 4, nullptr), own->cheapest(false, 16, sub, 4, nullptr));
}

// `total` units as p uneven blocks, the first empty.
std::vector<int64_t> uneven_blocks(int p, int64_t total) {
  std::vector<int64_t> counts(p, 0);
  int64_t left = total;
  for (int r = 1; r < p; ++r) {
    counts[r] = r + 1 == p ? left : total / (p - 1) + (r % 2 ? 1 : -1);
    left -= counts[r];
  }
  return counts;
}

CollArgs with_blocks(CollArgs a, const std::vector<int64_t>& counts) {
  a.counts = counts;
  a.displs.assign(counts.size(), 0);
  for (size_t r = 1; r < counts.size(); ++r) a.displs[r] = a.displs[r - 1] + counts[r - 1];
  a.count = counts[a.rank];
  return a;
}

// A reduce-scatter's phase is chosen by all its blocks, alike on every
// member (whose own blocks differ, one of them empty): the algorithm the
// model finds cheapest for even blocks of the same bytes.  An allgatherv's
// keeps the rules: its members may see other bytes (a datatype of size
// zero on some), so a choice by bytes could differ between them.
TEST(PhaseChoice, PhasesByAllBlocksChooseAlikeOnEveryMember) {
  const Figures fig = own_cores();
  const PhaseChooser* model = model_phases(fig);
  for (int nodes : {4, 5}) {
    const Layout L = layout_of(nodes, 2);
    const Op op = Op::kReduceScatter;
    {
      CollArgs a = call_args(L.size, op, 1);
      a.counts.assign(L.size, 1);
      const HierChoice* c = choose_composition(L, layout_facts(L), a, 4, 0,
                                               HierForced{"reduce_scatter_columns", ""}, nullptr, nullptr, model);
      ASSERT_NE(c, nullptr);
      const HierCall call{L, a, *c};
      for (int64_t total : {int64_t{64}, int64_t{1} << 12, int64_t{1} << 18}) {
        CollArgs even = call_args(nodes, op, total);
        even.counts.assign(nodes, 0);
        for (int r = 0; r < nodes; ++r) even.counts[r] = total / nodes + (r < total % nodes ? 1 : 0);
        const Algorithm* first = nullptr;
        for (int me = 0; me < nodes; ++me) {
          HierGroup leaders{{}, me, 0};
          for (int n = 0; n < nodes; ++n) leaders.ranks.push_back(2 * n);
          CollArgs sub = with_blocks(call.phase_args(op, leaders, 0), uneven_blocks(nodes, total));
          const Algorithm& chosen = call.phase_algorithm(true, &sub);
          if (!first) first = &chosen;
          EXPECT_EQ(&chosen, first) << op_name(op) << " member " << me << ": " << chosen.name;
        }
        const double chosen_us = level_cost(fig, true, with_blocks(even, even.counts), *first);
        ASSERT_GE(chosen_us, 0) << first->name;
        for (const Algorithm* other : algorithms_for(op)) {
          if (!algorithm_fits(*other, even) || (other->restrictions & kAllCounts)) continue;
          const double us = level_cost(fig, true, with_blocks(even, even.counts), *other);
          if (us >= 0)
            EXPECT_LE(chosen_us, us * 1.0001) << op_name(op) << " of " << total << " units on " << nodes
                                              << " nodes: " << first->name << " over " << other->name;
        }
      }
    }
  }
}

// Nothing to choose on a group of one.
TEST(PhaseChoice, AGroupOfOneHasNoChoice) {
  EXPECT_EQ(model_phases(builtin_figures())->cheapest(true, 1, call_args(1, Op::kBcast, 8), 4, nullptr), nullptr);
}

}  // namespace
}  // namespace hiercoll
