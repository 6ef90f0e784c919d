// Arrival-order trees under MPI (hint hiercoll_dynamic) against the MPI
// library's own collective: every rooted algorithm that can run in arrival
// order, every data case, counts 0, 1, 7, 1000 and one above 100000, every
// root, in place and not; and processes entering in forced orders --
// injected delays make them arrive staggered, in every order on groups of
// up to 4 and in rotations and reversals of rank order on larger ones --
// with both fill orders (every root on up to 4 ranks, three beyond).  Non-commutative reductions must keep the static
// tree (rank order).
#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "arrival/arrival_order.h"
#include "runtime/stats.h"
#include "tests/support/algorithm_params.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

ApiOp api_of(Op op) {
  switch (op) {
    case Op::kReduce: return ApiOp::kReduce;
    case Op::kGather: return ApiOp::kGather;
    case Op::kScatter: return ApiOp::kScatter;
    default: return ApiOp::kBcast;
  }
}

// Orders the non-roots enter in: all of them for up to 3 non-roots, else
// rank order rotated by each amount, and each rotation reversed.
std::vector<std::vector<int>> entry_orders(int size, int root) {
  std::vector<int> rest;
  for (int r = 0; r < size; ++r)
    if (r != root) rest.push_back(r);
  std::vector<std::vector<int>> out;
  if (rest.size() <= 3) {
    do out.push_back(rest);
    while (std::next_permutation(rest.begin(), rest.end()));
    return out;
  }
  for (size_t k = 0; k < rest.size(); ++k) {
    std::rotate(rest.begin(), rest.begin() + 1, rest.end());
    out.push_back(rest);
    out.emplace_back(rest.rbegin(), rest.rend());
  }
  return out;
}

class ArrivalMpi : public MpiTest, public ::testing::WithParamInterface<const Algorithm*> {
 protected:
  MPI_Comm dynamic_comm(const char* fill) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "hiercoll", "flat");
    const std::string key = std::string("hiercoll_") + op_name(GetParam()->op) + "_algorithm";
    MPI_Info_set(info, key.c_str(), GetParam()->name);
    MPI_Info_set(info, "hiercoll_dynamic", fill);
    MPI_Comm comm;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    return comm;
  }
  // One comparison; the call must have run the algorithm, in arrival order
  // exactly when the operation allows it.
  void check(const MpiCase& c, MPI_Comm comm) {
    EXPECT_EQ(compare_with_native(c, comm), "");
    if (std::string(last_algorithm()) == "none") return;
    const bool arrival = c.data->commutative || GetParam()->op != Op::kReduce;
    EXPECT_EQ(last_in_arrival_order(), arrival) << c.describe();
    // Algorithms that are no trees give way to the binomial tree (whether
    // one is a tree can depend on the count: checked at 1000 ints below).
    const std::string ran = last_algorithm();
    if (!arrival) {
      EXPECT_EQ(ran, GetParam()->name) << c.describe();
    } else {
      EXPECT_TRUE(ran == GetParam()->name || ran == "binomial") << ran << " " << c.describe();
    }
    if (arrival && c.count == 1000 && std::string(c.data->name) == "int_sum") {
      EXPECT_EQ(ran, tree_ ? GetParam()->name : "binomial") << c.describe();
    }
    runs_ += last_in_arrival_order();
  }
  int runs_ = 0;
  // Whether the algorithm's schedules form a tree (on this communicator's size).
  bool tree_ = [] {
    CollArgs a;  // 1000 ints: bcast counts bytes, gather and scatter blocks
    a.op = GetParam()->op;
    a.size = world_size();
    a.count = a.op == Op::kBcast ? 4000 : a.op == Op::kReduce ? 1000 : 1;
    return build_arrival_tree(*GetParam(), a, FillOrder::kDepthFirst).is_tree();
  }();
};

TEST_P(ArrivalMpi, MatchesMpi) {
  MPI_Comm comm = dynamic_comm("depth");
  int size;
  MPI_Comm_size(comm, &size);
  const ApiOp api = api_of(GetParam()->op);
  for (const DataCase& dc : data_cases())
    for (int count : {0, 1, 7, 1000})
      for (int root = 0; root < size; ++root)
        for (int in_place = 0; in_place < 2; ++in_place) check(MpiCase{api, &dc, count, root, in_place == 1}, comm);
  check(MpiCase{api, &data_case("int_sum"), 100003, size - 1, false}, comm);
  EXPECT_GT(runs_, 0);
  MPI_Comm_free(&comm);
}

// Each non-root sleeps 2 ms per place in the entry order before the call.
TEST_P(ArrivalMpi, EveryEntryOrder) {
  int size, me;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const ApiOp api = api_of(GetParam()->op);
  // Every root on small groups; the ends and the middle on larger ones.
  std::vector<int> roots{0, size / 2, size - 1};
  if (size <= 4) {
    roots.clear();
    for (int r = 0; r < size; ++r) roots.push_back(r);
  }
  for (const char* fill : {"depth", "breadth"}) {
    MPI_Comm comm = dynamic_comm(fill);
    for (int root : roots)
      for (const std::vector<int>& order : entry_orders(size, root)) {
        const auto place = std::find(order.begin(), order.end(), me) - order.begin();
        if (me != root) usleep(static_cast<useconds_t>(2000 * (place + 1)));
        check(MpiCase{api, &data_case("int_sum"), 1000, root, false}, comm);
      }
    MPI_Comm_free(&comm);
  }
  EXPECT_GT(runs_, 0);
}

INSTANTIATE_TEST_SUITE_P(Rooted, ArrivalMpi, ::testing::ValuesIn(rooted_algorithms()), algorithm_test_name);

// Mode hier: bcast, reduce, gather and scatter run the leaders' and the
// nodes' trees in arrival order (runtime/hier_arrival.cc) where the layout
// has levels (bcast and reduce on equal nodes: the composition in arrival
// order, arrival/hier_arrival_tree.h); every data case, count, root, in place and not, datatypes
// that differ between the two sides, and staggered entry orders (bcast's
// with node leaders chosen by arrival and fixed).
class HierArrivalMpi : public MpiTest {};

MPI_Comm hier_dynamic_comm(const char* leaders) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "hiercoll_dynamic", "depth");
  MPI_Info_set(info, "hiercoll_dynamic_leaders", leaders);
  MPI_Comm comm;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
  MPI_Info_free(&info);
  return comm;
}

TEST_F(HierArrivalMpi, MatchesMpiInEveryEntryOrder) {
  MPI_Comm comm = hier_dynamic_comm("first");
  MPI_Comm fixed = hier_dynamic_comm("fixed");
  int size, me;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &me);
  int hier_runs = 0;      // of the operation being checked, hierarchical in arrival order
  int composed_runs = 0;  // of those, a composition (not the phases' binomial trees)
  auto check = [&](const MpiCase& c, MPI_Comm on) {
    EXPECT_EQ(compare_with_native(c, on), "");
    const std::string ran = last_algorithm();
    if (ran == "none") return;
    EXPECT_EQ(last_in_arrival_order(), c.data->commutative || c.api != ApiOp::kReduce) << c.describe();
    const bool hier = ran.rfind("hier:", 0) == 0 && last_in_arrival_order();
    hier_runs += hier;
    composed_runs += hier && ran != "hier:binomial";
  };
  // The hierarchical trees must run wherever the job spans several nodes.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size, several = 0, one = 0, smallest = 0, largest = 0;
  MPI_Comm_size(node, &node_size);
  one = node_size < size;
  MPI_Allreduce(&one, &several, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&node_size, &smallest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&node_size, &largest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Comm_free(&node);
  for (ApiOp api : {ApiOp::kBcast, ApiOp::kReduce, ApiOp::kGather, ApiOp::kScatter}) {
    hier_runs = composed_runs = 0;
    for (const DataCase& dc : data_cases())
      for (int count : {0, 1, 7, 1000})
        for (int root = 0; root < size; ++root)
          for (int in_place = 0; in_place < 2; ++in_place) check(MpiCase{api, &dc, count, root, in_place == 1}, comm);
    check(MpiCase{api, &data_case("int_sum"), 100003, size - 1, false}, comm);
    // Different datatypes of one type signature on the two sides (gather's
    // and scatter's bundles take the type of the side they hold).
    if (api != ApiOp::kReduce)
      for (int n : {1, 7, 1000})
        for (int root = 0; root < size; ++root)
          for (const TypedCase& tc : typed_pairs(api, 3 * n, root)) {
            EXPECT_EQ(compare_typed_with_native(tc, comm), "");
            EXPECT_TRUE(last_in_arrival_order()) << tc.describe();
            hier_runs += std::string(last_algorithm()).rfind("hier:", 0) == 0;
          }
    for (MPI_Comm on : {comm, fixed}) {
      if (on == fixed && api != ApiOp::kBcast) continue;  // leaders are fixed there anyway
      for (int root = 0; root < size; ++root)
        for (const std::vector<int>& order : entry_orders(size, root)) {
          const auto place = std::find(order.begin(), order.end(), me) - order.begin();
          if (me != root) usleep(static_cast<useconds_t>(2000 * (place + 1)));
          // Odd roots: a message the pipelined compositions take.
          check(MpiCase{api, &data_case("int_sum"), root % 2 ? 100003 : 1000, root, false}, on);
        }
    }
    if (several) {
      EXPECT_GT(hier_runs, 0) << api_op_name(api);
    }
    // Bcast and reduce on equal nodes: the composition in arrival order.
    if (several && smallest == largest && (api == ApiOp::kBcast || api == ApiOp::kReduce)) {
      EXPECT_GT(composed_runs, 0) << api_op_name(api);
    }
  }
  MPI_Comm_free(&fixed);
  MPI_Comm_free(&comm);
}

}  // namespace
}  // namespace hiercoll::testing
