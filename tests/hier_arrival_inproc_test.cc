// Arrival-order trees of the hierarchical compositions
// (arrival/hier_arrival_tree.h) in one process: bcast and reduce compositions
// on layouts of equal nodes (consecutive and round-robin), every root,
// processes entering in every order on small layouts and seeded random
// orders on larger ones, both fill orders, in place and not, every data
// case that applies; that nodes are placed whole; and that compositions
// whose non-leaders talk across nodes are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "arrival/hier_arrival_tree.h"
#include "hier/hier_registry.h"
#include "tests/support/inproc_check.h"
#include "tests/support/sanitize_mode.h"

namespace hiercoll::testing {
namespace {

// Nodes of `per_node` ranks; round robin: rank r on node r % nodes.
Layout equal_nodes(int nodes, int per_node, bool round_robin) {
  std::vector<int> key(nodes * per_node);
  for (int r = 0; r < nodes * per_node; ++r) key[r] = round_robin ? r % nodes : r / per_node;
  return make_layout(key, {}, "none");
}

struct Entry {
  const HierComposition* comp;
  const Layout* layout;
  int root = 0;
  std::vector<int> arrival;  // the root first
  FillOrder fill = FillOrder::kDepthFirst;
  const DataCase* data = nullptr;
  bool in_place = false;
  int64_t count = 7;
};

// The leaders' algorithms the runtime takes: the composition's own
// (two-tree for the pipelined ones), or one forced.
const char* const kInter[] = {"", "pipelined_binary_tree", "chain"};

class HierArrival : public ::testing::TestWithParam<const HierComposition*> {
 protected:
  // "" or what failed; skips (and says nothing) where the composition does
  // not apply.
  std::string run(const Entry& r, const char* inter) {
    Scenario sc;
    sc.op = r.comp->op;
    sc.p = r.layout->size;
    sc.root = r.root;
    sc.count = r.count;
    sc.data = r.data ? r.data : &data_case("int_sum");
    sc.in_place = r.in_place;
    sc.seg_units = 2;
    if (!scenario_applies(sc)) return "";
    const CollArgs a0 = scenario_args(sc, 0);
    if (!arrival_order_applies(a0)) return "";
    const LayoutFacts F = layout_facts(*r.layout);
    if (!composition_applies(*r.comp, *r.layout, F, a0)) return "";
    auto choice = std::make_shared<HierChoice>(make_choice(*r.comp, *r.layout, F, a0, type_bytes(*sc.data), 0));
    choice->seg_units = 2;
    if (*inter) choice->inter = find_algorithm(sc.op, inter);
    const int per_node = r.layout->node_size(0);
    const FillOrder fill = r.fill;
    sc.tree = [choice, per_node, fill](const CollArgs& a) {
      return build_hier_arrival_tree(*choice, a, per_node, fill);
    };
    if (sc.tree(a0).p == 0) return "tree refused";
    sc.node_of = r.layout->node_of;
    sc.arrival = r.arrival;
    sc.fill = r.fill;
    sc.name = std::string("hier:") + r.comp->name + (*inter ? std::string(" inter=") + inter : "") + " arrival";
    ++ran_;
    return check_inprocess(sc);
  }
  void TearDown() override { RecordProperty("scenarios", ran_); }
  int ran_ = 0;
};

std::vector<int> others(int p, int root) {
  std::vector<int> v;
  for (int r = 0; r < p; ++r)
    if (r != root) v.push_back(r);
  return v;
}

std::vector<int> root_then(int root, const std::vector<int>& rest) {
  std::vector<int> order{root};
  order.insert(order.end(), rest.begin(), rest.end());
  return order;
}

// (The layouts of 4 ranks only under the sanitizers; of 6, 720 orders a root.)
TEST_P(HierArrival, EveryOrderOnSmallLayouts) {
  std::vector<Layout> layouts{equal_nodes(2, 2, false), equal_nodes(2, 2, true)};
  if (!sanitize_mode()) layouts.insert(layouts.end(), {equal_nodes(3, 2, false), equal_nodes(2, 3, true)});
  for (const Layout& L : layouts)
    for (int root = 0; root < L.size; ++root) {
      std::vector<int> rest = others(L.size, root);
      // Each order once, the fill orders and leaders' algorithms in turn.
      int turn = 0;
      do {
        const FillOrder fill = turn % 2 ? FillOrder::kBreadthFirst : FillOrder::kDepthFirst;
        const char* inter = kInter[(turn / 2) % 3];
        ++turn;
        const std::string err = run(Entry{GetParam(), &L, root, root_then(root, rest), fill}, inter);
        ASSERT_EQ(err, "") << L.describe();
      } while (std::next_permutation(rest.begin(), rest.end()));
    }
  if (compositions_for(GetParam()->op).size() > 0) {
    EXPECT_GT(ran_, 0);
  }
}

TEST_P(HierArrival, RandomOrdersLargerLayoutsEveryDataCase) {
  std::mt19937 rng(1325);
  for (const Layout& L : {equal_nodes(4, 2, false), equal_nodes(4, 2, true), equal_nodes(3, 3, false),
                          equal_nodes(5, 3, true), equal_nodes(8, 2, false)})
    for (const DataCase& d : data_cases())
      for (bool in_place : {false, true}) {
        const int root = static_cast<int>(rng() % L.size);
        std::vector<int> rest = others(L.size, root);
        std::shuffle(rest.begin(), rest.end(), rng);
        Entry r{GetParam(), &L, root, root_then(root, rest)};
        r.data = &d;
        r.in_place = in_place;
        r.count = rng() % 2 ? 1 : 29;
        r.fill = rng() % 2 ? FillOrder::kBreadthFirst : FillOrder::kDepthFirst;
        const std::string err = run(r, kInter[rng() % 3]);
        ASSERT_EQ(err, "") << L.describe();
      }
  EXPECT_GT(ran_, 0);
}

std::vector<const HierComposition*> bcast_and_reduce() {
  std::vector<const HierComposition*> v;
  for (Op op : {Op::kBcast, Op::kReduce})
    for (const HierComposition* c : compositions_for(op)) v.push_back(c);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Compositions, HierArrival, ::testing::ValuesIn(bcast_and_reduce()),
                         [](const ::testing::TestParamInfo<const HierComposition*>& i) {
                           return std::string(i.param->name);
                         });

// The pipelined bcast composition of 4 nodes of 2, root 0.
ArrivalTree pipelined_bcast_tree(const char* inter, FillOrder fill) {
  const Layout L = consecutive_layout(8, 2);
  CollArgs a;
  a.op = Op::kBcast;
  a.size = 8;
  a.count = 64;
  HierChoice ch = make_choice(*find_composition(Op::kBcast, "bcast_pipelined"), L, layout_facts(L), a, 1, 16);
  ch.inter = find_algorithm(Op::kBcast, inter);
  return build_hier_arrival_tree(ch, a, 2, fill);
}

TEST(HierArrivalPlacement, NodesArePlacedWholeAndLedByTheirFirstArrival) {
  const ArrivalTree t = pipelined_bcast_tree("pipelined_binary_tree", FillOrder::kDepthFirst);
  ASSERT_EQ(t.p, 8);
  ASSERT_EQ(t.per_node, 2);
  EXPECT_EQ(t.node_fill.size(), 4u);
  EXPECT_EQ(t.node_fill[0], 0);
  // Round robin: rank r on node r % 4; root 5 (node 1).
  const Layout L = equal_nodes(4, 2, true);
  Placement place(t, /*root=*/5, &L.node_of);
  // Rank 3 (node 3) arrives first: its node takes the first node position
  // after the root's and rank 3 leads it; rank 7, its mate, comes later.
  const int p3 = place.take(3);
  EXPECT_EQ(p3, t.node_fill[1] * 2);
  EXPECT_EQ(place.take(1), 1);  // the root's mate: index 1 of node position 0
  const int p0 = place.take(0);
  EXPECT_EQ(p0, t.node_fill[2] * 2);
  EXPECT_EQ(place.take(7), p3 + 1);
  EXPECT_EQ(place.take(4), p0 + 1);
  EXPECT_EQ(place.take(6), t.node_fill[3] * 2);
  EXPECT_EQ(place.take(2), t.node_fill[3] * 2 + 1);
}

TEST(HierArrivalPlacement, LeadersMayTalkInAnyGraphNonLeadersNeverAcrossNodes) {
  // The two-tree's leaders talk in a graph with cycles: usable, as the
  // static composition's (a node's place matters only when it is late
  // as a whole).
  EXPECT_EQ(pipelined_bcast_tree("twotree", FillOrder::kDepthFirst).p, 8);
  EXPECT_EQ(pipelined_bcast_tree("pipelined_binary_tree", FillOrder::kBreadthFirst).p, 8);
  // allreduce_columns: every rank talks to its column across nodes.
  const Layout L = consecutive_layout(8, 2);
  CollArgs a;
  a.op = Op::kAllreduce;
  a.size = 8;
  a.count = 64;
  a.commutative = true;
  const HierChoice ch =
      make_choice(*find_composition(Op::kAllreduce, "allreduce_columns"), L, layout_facts(L), a, 4, 0);
  EXPECT_EQ(build_hier_arrival_tree(ch, a, 2, FillOrder::kDepthFirst).p, 0);
}

}  // namespace
}  // namespace hiercoll::testing
