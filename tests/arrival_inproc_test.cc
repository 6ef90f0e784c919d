// Arrival-order trees (arrival/arrival_order.h) in one process: every rooted
// algorithm that can run in arrival order, against the reference, with the
// processes entering in every order on small groups (and seeded random
// orders on larger ones), every root, both fill orders, in place and not,
// every data case that applies; and the fill orders' shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "arrival/arrival_order.h"
#include "tests/support/algorithm_params.h"
#include "tests/support/inproc_check.h"
#include "tests/support/sanitize_mode.h"

namespace hiercoll::testing {
namespace {

// The root first, then the others in `rest`'s order.
std::vector<int> arrival_of(int root, const std::vector<int>& rest) {
  std::vector<int> order{root};
  order.insert(order.end(), rest.begin(), rest.end());
  return order;
}

std::vector<int> non_roots(int p, int root) {
  std::vector<int> v;
  for (int r = 0; r < p; ++r)
    if (r != root) v.push_back(r);
  return v;
}

class ArrivalOrder : public ::testing::TestWithParam<const Algorithm*> {
 protected:
  void run(Scenario sc) {
    sc.algo = GetParam();
    if (!sc.data) sc.data = &data_case("int_sum");
    if (!scenario_applies(sc) || !arrival_order_applies(scenario_args(sc, 0))) return;
    ++ran_;
    const std::string err = check_inprocess(sc);
    ASSERT_EQ(err, "") << sc.describe();
  }
  int ran_ = 0;
};

// Every order of groups to 5 (to 4 under the sanitizers).
TEST_P(ArrivalOrder, EveryOrderEveryRoot) {
  for (int p = 2; p <= (sanitize_mode() ? 4 : 5); ++p)
    for (int root = 0; root < p; ++root) {
      std::vector<int> rest = non_roots(p, root);
      do {
        for (FillOrder fill : {FillOrder::kDepthFirst, FillOrder::kBreadthFirst}) {
          Scenario sc;
          sc.p = p;
          sc.root = root;
          sc.count = 7;
          sc.seg_units = 2;
          sc.arrival = arrival_of(root, rest);
          sc.fill = fill;
          run(sc);
          if (HasFatalFailure()) return;
        }
      } while (std::next_permutation(rest.begin(), rest.end()));
    }
  EXPECT_GT(ran_, 0);
}

TEST_P(ArrivalOrder, RandomOrdersLargerGroups) {
  std::mt19937 rng(13);
  for (int p : sanitize_mode() ? std::vector<int>{6, 9, 17} : std::vector<int>{6, 7, 8, 9, 12, 16, 17, 31, 33}) {
    for (int trial = 0; trial < 4; ++trial) {
      const int root = static_cast<int>(rng() % p);
      std::vector<int> rest = non_roots(p, root);
      std::shuffle(rest.begin(), rest.end(), rng);
      Scenario sc;
      sc.p = p;
      sc.root = root;
      sc.count = trial == 0 ? 1 : 13;
      sc.seg_units = trial % 2 ? 3 : 0;
      sc.arrival = arrival_of(root, rest);
      sc.fill = trial % 2 ? FillOrder::kBreadthFirst : FillOrder::kDepthFirst;
      run(sc);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(ran_, 0);
}

TEST_P(ArrivalOrder, EveryDataCaseInPlaceAndNot) {
  std::mt19937 rng(5);
  for (const DataCase& d : data_cases())
    for (bool in_place : {false, true})
      for (int p : {3, 8, 11}) {
        const int root = p / 2;
        std::vector<int> rest = non_roots(p, root);
        std::shuffle(rest.begin(), rest.end(), rng);
        Scenario sc;
        sc.p = p;
        sc.root = root;
        sc.count = 5;
        sc.seg_units = 2;
        sc.data = &d;
        sc.in_place = in_place;
        sc.arrival = arrival_of(root, rest);
        run(sc);
        if (HasFatalFailure()) return;
      }
  // Non-commutative reductions never run in arrival order.
  if (GetParam()->op != Op::kReduce) {
    EXPECT_GT(ran_, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Rooted, ArrivalOrder, ::testing::ValuesIn(rooted_algorithms()), algorithm_test_name);

// The binomial bcast tree of 8 (root 0: children 4, 2, 1; 4: 6, 5; 6: 7; 2: 3).
ArrivalTree binomial_of_8(FillOrder fill) {
  CollArgs a;
  a.op = Op::kBcast;
  a.size = 8;
  a.count = 4;
  return build_arrival_tree(*find_algorithm(Op::kBcast, "binomial"), a, fill);
}

TEST(ArrivalFill, DepthFirstFillsLargestSubtreesFirst) {
  const ArrivalTree t = binomial_of_8(FillOrder::kDepthFirst);
  EXPECT_EQ(t.fill, (std::vector<int>{0, 4, 6, 7, 5, 2, 3, 1}));
  // The last three to arrive are leaves of the root's smallest subtrees,
  // and the last is the root's own child.
  EXPECT_EQ(t.peers[1], (std::vector<int>{0}));
  EXPECT_EQ(t.peers[3], (std::vector<int>{2}));
  // Arrivals take positions in fill order, whoever they are.
  Placement place(t, /*root=*/3);
  std::vector<int> taken;
  for (int rank : {5, 0, 7, 1, 2, 6, 4}) taken.push_back(place.take(rank));
  EXPECT_EQ(taken, (std::vector<int>{4, 6, 7, 5, 2, 3, 1}));
}

TEST(ArrivalFill, BreadthFirstFillsLevels) {
  EXPECT_EQ(binomial_of_8(FillOrder::kBreadthFirst).fill, (std::vector<int>{0, 4, 2, 1, 6, 5, 3, 7}));
}

TEST(ArrivalFill, TreesAndNonTrees) {
  CollArgs a;
  a.op = Op::kBcast;
  a.size = 8;
  a.count = 64;
  a.seg_units = 8;
  for (const char* tree : {"binomial", "chain", "pipelined_binary_tree", "linear"})
    EXPECT_TRUE(build_arrival_tree(*find_algorithm(Op::kBcast, tree), a, FillOrder::kDepthFirst).is_tree()) << tree;
  EXPECT_FALSE(build_arrival_tree(*find_algorithm(Op::kBcast, "scatter_ring"), a, FillOrder::kDepthFirst).is_tree());
  a.op = Op::kReduce;
  EXPECT_FALSE(build_arrival_tree(*find_algorithm(Op::kReduce, "rabenseifner"), a, FillOrder::kDepthFirst).is_tree());
}

TEST(ArrivalFill, NonCommutativeReduceKeepsRankOrder) {
  CollArgs a;
  a.op = Op::kReduce;
  a.size = 8;
  a.commutative = false;
  EXPECT_FALSE(arrival_order_applies(a));
  a.commutative = true;
  EXPECT_TRUE(arrival_order_applies(a));
  a.op = Op::kAllreduce;
  EXPECT_FALSE(arrival_order_applies(a));
}

}  // namespace
}  // namespace hiercoll::testing
