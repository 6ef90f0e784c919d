// topo/ on every emulated layout, against ground truth from host names.
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "tests/support/mpi_test.h"
#include "topo/topology.h"

namespace hiercoll::testing {
namespace {

// As the library does right after MPI_Init: world's topology first, so the
// communicators below read theirs off it.
class TopoTest : public MpiTest {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(init_world_topology(), MPI_SUCCESS); }
};

std::vector<std::string> host_names(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  char host[MPI_MAX_PROCESSOR_NAME] = {0};
  int len;
  MPI_Get_processor_name(host, &len);
  std::vector<char> all(size_t(size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm);
  std::vector<std::string> names;
  for (int r = 0; r < size; ++r) names.emplace_back(&all[size_t(r) * MPI_MAX_PROCESSOR_NAME]);
  return names;
}

// Checks everything topo/ says about `comm` against the host names.
void check_against_hosts(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::vector<std::string> hosts = host_names(comm);
  const Topology* t = nullptr;
  ASSERT_EQ(get_topology(comm, &t), MPI_SUCCESS);
  const Layout& L = *t->layout;

  // Expected: nodes numbered in order of their lowest rank.
  std::map<std::string, int> node_index;
  std::vector<std::vector<int>> expect_ranks;
  for (int r = 0; r < size; ++r) {
    auto it = node_index.emplace(hosts[r], int(expect_ranks.size())).first;
    if (it->second == int(expect_ranks.size())) expect_ranks.emplace_back();
    expect_ranks[it->second].push_back(r);
  }
  EXPECT_EQ(L.size, size);
  EXPECT_EQ(L.num_nodes, int(expect_ranks.size()));
  EXPECT_EQ(L.node_ranks, expect_ranks);
  bool consecutive = true;
  for (int n = 0; n < int(expect_ranks.size()); ++n) {
    const auto& v = expect_ranks[n];
    if (v.back() - v.front() + 1 != int(v.size())) consecutive = false;
    EXPECT_EQ(L.master_of_node(n), v.front());
    for (int i = 0; i < int(v.size()); ++i) {
      EXPECT_EQ(L.node_of[v[i]], n);
      EXPECT_EQ(L.local_rank[v[i]], i);
    }
  }
  EXPECT_EQ(L.consecutive, consecutive);

  // The private duplicate is a different communicator of the same group.
  int cmp;
  MPI_Comm_compare(comm, t->comm, &cmp);
  EXPECT_EQ(cmp, MPI_CONGRUENT);
}

TEST_F(TopoTest, WorldMatchesHostNames) { check_against_hosts(MPI_COMM_WORLD); }

TEST_F(TopoTest, SecondQueryUsesTheCache) {
  const Topology* a = nullptr;
  const Topology* b = nullptr;
  ASSERT_EQ(get_topology(MPI_COMM_WORLD, &a), MPI_SUCCESS);
  const long computed = layouts_computed();
  ASSERT_EQ(get_topology(MPI_COMM_WORLD, &b), MPI_SUCCESS);
  EXPECT_EQ(a, b);
  EXPECT_EQ(layouts_computed(), computed);
}

TEST_F(TopoTest, DuplicateSharesLayoutAndFreeReleases) {
  const Topology* world = nullptr;
  ASSERT_EQ(get_topology(MPI_COMM_WORLD, &world), MPI_SUCCESS);
  const int live = live_topologies();
  const long computed = layouts_computed();
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  EXPECT_EQ(live_topologies(), live + 1);  // copied on dup
  const Topology* d = nullptr;
  ASSERT_EQ(get_topology(dup, &d), MPI_SUCCESS);
  EXPECT_EQ(d->layout, world->layout);  // shared, not recomputed
  EXPECT_EQ(layouts_computed(), computed);
  EXPECT_NE(d->comm, world->comm);
  check_against_hosts(dup);
  MPI_Comm_free(&dup);
  EXPECT_EQ(live_topologies(), live);
}

TEST_F(TopoTest, SplitsAndSubsets) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Topology* world = nullptr;
  ASSERT_EQ(get_topology(MPI_COMM_WORLD, &world), MPI_SUCCESS);
  const Layout& L = *world->layout;
  const int live = live_topologies();
  // Odd/even ranks; all but one rank of the last node (one rank left there);
  // every node but the first (a subset of nodes); reversed rank order.
  const int last_node = L.num_nodes - 1;
  const int colors[] = {
      rank % 2,
      (L.node_of[rank] == last_node && L.local_rank[rank] > 0) ? MPI_UNDEFINED : 0,
      (L.num_nodes > 1 && L.node_of[rank] == 0) ? MPI_UNDEFINED : 0,
      0,
  };
  const int keys[] = {rank, rank, rank, size - rank};
  for (int i = 0; i < 4; ++i) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, colors[i], keys[i], &sub);
    if (sub != MPI_COMM_NULL) {
      check_against_hosts(sub);
      MPI_Comm_free(&sub);
    }
  }
  EXPECT_EQ(live_topologies(), live);
}

// Open MPI copies a communicator's attributes (hiercoll's cached topology
// among them) into the communicators MPI_Comm_create_group and
// MPI_Comm_create make from it, whose group is another: each must still get
// its own layout.  All ranks but 0, in reverse order; then the even ranks.
TEST_F(TopoTest, CreateGroupAndCreateGetTheirOwnLayout) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Topology* world = nullptr;
  ASSERT_EQ(get_topology(MPI_COMM_WORLD, &world), MPI_SUCCESS);
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  std::vector<int> reversed, even;
  for (int r = size - 1; r >= 1; --r) reversed.push_back(r);
  for (int r = 0; r < size; r += 2) even.push_back(r);
  MPI_Group g;
  MPI_Group_incl(world_group, int(reversed.size()), reversed.data(), &g);
  if (rank != 0) {
    MPI_Comm sub;
    ASSERT_EQ(MPI_Comm_create_group(MPI_COMM_WORLD, g, 5, &sub), MPI_SUCCESS);
    check_against_hosts(sub);
    MPI_Comm_free(&sub);
  }
  MPI_Group_free(&g);
  MPI_Group_incl(world_group, int(even.size()), even.data(), &g);
  MPI_Comm sub;
  ASSERT_EQ(MPI_Comm_create(MPI_COMM_WORLD, g, &sub), MPI_SUCCESS);
  if (sub != MPI_COMM_NULL) {
    check_against_hosts(sub);
    MPI_Comm_free(&sub);
  }
  MPI_Group_free(&g);
  MPI_Group_free(&world_group);
}

// The socket level from hwloc, on a synthetic machine of two packages of two
// single-PU cores: node-local ranks 0,1 on package 0, 2,3 on package 1, then
// again.  The socket_level targets set HIERCOLL_HWLOC_SYNTHETIC for the
// whole job (the layout is found at start-up); elsewhere this is skipped.
TEST_F(TopoTest, SyntheticSocketLevelFromHwloc) {
  if (!std::getenv("HIERCOLL_HWLOC_SYNTHETIC")) GTEST_SKIP() << "needs HIERCOLL_HWLOC_SYNTHETIC (socket_level targets)";
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &sub);
  for (MPI_Comm comm : {MPI_COMM_WORLD, sub}) {
    const Topology* t = nullptr;
    ASSERT_EQ(get_topology(comm, &t), MPI_SUCCESS);
    const Layout& L = *t->layout;
    EXPECT_EQ(L.socket_level, "package");
    int most = 0;
    for (int r = 0; r < L.size; ++r) {
      EXPECT_EQ(L.socket_of[r], (L.local_rank[r] % 4) / 2) << "rank " << r;
      most = std::max(most, L.node_size(L.node_of[r]));
    }
    EXPECT_EQ(L.max_sockets_per_node, most > 2 ? 2 : 1);
  }
  MPI_Comm_free(&sub);
}

}  // namespace
}  // namespace hiercoll::testing
