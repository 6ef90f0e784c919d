// The hierarchical path (HIERCOLL_MODE default: hier) against the MPI
// library's own collectives on every emulated layout: every operation,
// every data case, every root, in place and not, counts from 0 to past the
// pipelining threshold, with each composition forced by its hint; and
// that the forced compositions really ran where they apply (bcast, reduce,
// allreduce, barrier, scan, exscan, allgather(v), alltoall(v) with one
// leader per node or many, gather, scatter, reduce_scatter(_block)
// on multi-node layouts that are not
// degenerate), and not where they do not.  Also: the socket level (hwloc synthetic topology), communicators
// that are splits of MPI_COMM_WORLD, the per-communicator knobs (forced
// compositions and inter-node algorithms included, with their visible
// fallbacks), and bcast with different datatypes on the root and the
// other ranks.
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/stats.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"
#include "topo/topology.h"

namespace hiercoll::testing {
namespace {

const ApiOp kAllOps[] = {
    ApiOp::kBcast,   ApiOp::kReduce, ApiOp::kAllreduce,  ApiOp::kAllgather, ApiOp::kReduceScatterBlock,
    ApiOp::kReduceScatter, ApiOp::kAlltoall, ApiOp::kScan, ApiOp::kExscan, ApiOp::kBarrier,
    ApiOp::kGather, ApiOp::kScatter, ApiOp::kGatherv, ApiOp::kScatterv, ApiOp::kAllgatherv, ApiOp::kAlltoallv,
    ApiOp::kAlltoallw,
};

bool is_reduction(ApiOp op) {
  return op == ApiOp::kReduce || op == ApiOp::kAllreduce || op == ApiOp::kScan || op == ApiOp::kExscan ||
         op == ApiOp::kReduceScatter || op == ApiOp::kReduceScatterBlock;
}

// Whether the layout has two levels for op's compositions: several nodes,
// some with several ranks; or one node with two sockets of several ranks,
// for the compositions that use the socket level.
bool two_levels(ApiOp op, const Layout& L) {
  if (L.num_nodes == 1 && L.max_sockets_per_node > 1 && L.socket_level != "none")
    return op == ApiOp::kBcast || op == ApiOp::kReduce || op == ApiOp::kAllreduce || op == ApiOp::kBarrier;
  bool multi = false;
  for (int n = 0; n < L.num_nodes; ++n) multi = multi || L.node_size(n) > 1;
  return multi && L.num_nodes > 1;
}

// Whether hiercoll should run the call hierarchically on comm's layout
// (derived from the layout, independently of the selection code).
bool expect_hier(ApiOp op, const DataCase& dc, int count, const Layout& L) {
  // Nothing to move (an alltoallv(w) cannot tell: no rank knows every block).
  if (count == 0 && op != ApiOp::kBarrier && op != ApiOp::kAlltoallv && op != ApiOp::kAlltoallw) return false;
  const bool multi = two_levels(op, L);
  switch (op) {
    case ApiOp::kBcast: case ApiOp::kBarrier: case ApiOp::kAllgatherv: case ApiOp::kAllgather:
    case ApiOp::kAlltoall: case ApiOp::kAlltoallv: case ApiOp::kAlltoallw: case ApiOp::kGather: case ApiOp::kScatter:
      return multi;
    case ApiOp::kReduce: case ApiOp::kAllreduce: case ApiOp::kReduceScatter: case ApiOp::kReduceScatterBlock:
      return multi && (dc.commutative || L.consecutive);
    case ApiOp::kScan: case ApiOp::kExscan: return multi && L.consecutive;
    default: return false;  // kept flat
  }
}

class HierMpi : public MpiTest {
 protected:
  // Runs one comparison with MPI (`compare` returns "" when this rank
  // agrees) and checks which path ran; returns the algorithm that ran.
  // assert_path false: the result only (a forced composition that may not
  // apply to the layout).
  template <typename Compare>
  std::string check(ApiOp api, const DataCase& dc, int count, const std::string& what, MPI_Comm comm,
                    Compare compare, bool assert_path = true) {
    const Topology* topo = nullptr;
    EXPECT_EQ(get_topology(comm, &topo), MPI_SUCCESS);
    if (!topo) return "";
    const long hier_before = local_count(api, Path::kHier);
    EXPECT_EQ(compare(), "");
    const std::string ran = last_algorithm();
    const bool hier = ran.rfind("hier:", 0) == 0;
    if (!assert_path) {
      hier_runs_ += hier ? 1 : 0;
    } else if (expect_hier(api, dc, count, *topo->layout)) {
      EXPECT_TRUE(hier) << what << " ran " << ran << " on " << topo->layout->describe();
      EXPECT_EQ(local_count(api, Path::kHier), hier_before + 1) << what;
      ++hier_runs_;
    } else {
      EXPECT_FALSE(hier) << what << " ran " << ran << " on " << topo->layout->describe();
    }
    ++runs_;
    return ran;
  }
  void check(const MpiCase& c, MPI_Comm comm, bool assert_path = true) {
    check(c.api, *c.data, c.count, c.describe(), comm, [&] { return compare_with_native(c, comm); }, assert_path);
  }
  std::string check(const TypedCase& c, MPI_Comm comm) {
    return check(c.api, *c.send_type, c.doubles, c.describe(), comm, [&] { return compare_typed_with_native(c, comm); });
  }
  void TearDown() override {
    RecordProperty("cases", runs_);
    RecordProperty("hierarchical", hier_runs_);
    MpiTest::TearDown();
  }

  // A duplicate of base with hints (freed by the caller).
  static MPI_Comm forcing(MPI_Comm base, const std::vector<std::pair<const char*, const char*>>& hints) {
    MPI_Info info;
    MPI_Info_create(&info);
    for (const auto& [key, value] : hints) MPI_Info_set(info, key, value);
    MPI_Comm comm;
    MPI_Comm_dup_with_info(base, info, &comm);
    MPI_Info_free(&info);
    return comm;
  }

  // Every operation, data case, count, root and in-place variant on a
  // duplicate of base that forces each operation's plain composition
  // (hints), so that every composition runs against MPI whatever the model
  // decides at these sizes (a forced composition that does not apply
  // leaves the call to the decision: flat here); past the pipelining
  // sizes, the pipelined and column compositions forced likewise.
  void check_all(MPI_Comm base, const std::vector<int>& counts, int large_count) {
    MPI_Comm comm = forcing(base, {{"hiercoll_bcast_composition", "bcast"},
                                   {"hiercoll_reduce_composition", "reduce"},
                                   {"hiercoll_allreduce_composition", "allreduce"},
                                   {"hiercoll_scan_composition", "scan"},
                                   {"hiercoll_exscan_composition", "exscan"},
                                   {"hiercoll_barrier_composition", "barrier"},
                                   {"hiercoll_allgatherv_composition", "allgatherv"},
                                   {"hiercoll_allgather_composition", "allgather"},
                                   {"hiercoll_alltoall_composition", "alltoall"},
                                   {"hiercoll_alltoallv_composition", "alltoallv"},
                                   {"hiercoll_gather_composition", "gather"},
                                   {"hiercoll_scatter_composition", "scatter"},
                                   {"hiercoll_reduce_scatter_composition", "reduce_scatter"}});
    check_matrix(comm, counts, large_count);
    MPI_Comm_free(&comm);
    // The multi-leader alltoall(v) and allgather(v), and reduce-scatter in
    // columns (equal nodes only: elsewhere the decision's), over the same
    // counts, in place and not.
    MPI_Comm leaders = forcing(base, {{"hiercoll_alltoall_composition", "alltoall_leaders"},
                                      {"hiercoll_alltoallv_composition", "alltoallv_leaders"},
                                      {"hiercoll_allgather_composition", "allgather_leaders"},
                                      {"hiercoll_allgatherv_composition", "allgatherv_leaders"},
                                      {"hiercoll_reduce_scatter_composition", "reduce_scatter_columns"}});
    const Topology* topo = nullptr;
    ASSERT_EQ(get_topology(leaders, &topo), MPI_SUCCESS);
    const bool uniform = topo && topo->layout->uniform;
    const std::pair<ApiOp, const char*> forced[] = {
        {ApiOp::kAlltoall, "hier:alltoall_leaders"},   {ApiOp::kAlltoallv, "hier:alltoallv_leaders"},
        {ApiOp::kAlltoallw, "hier:alltoallv_leaders"}, {ApiOp::kAllgather, "hier:allgather_leaders"},
        {ApiOp::kAllgatherv, "hier:allgatherv_leaders"}, {ApiOp::kReduceScatter, "hier:reduce_scatter_columns"},
        {ApiOp::kReduceScatterBlock, "hier:reduce_scatter_columns"}};
    for (const auto& [api, composition] : forced) {
      const bool applies = uniform || (api != ApiOp::kReduceScatter && api != ApiOp::kReduceScatterBlock);
      auto run = [&, api = api, composition = composition](const MpiCase& c) {
        check(c, leaders, applies);
        const std::string ran = last_algorithm();
        if (applies && ran.rfind("hier:", 0) == 0) EXPECT_EQ(ran.substr(0, ran.find(' ')), composition);
      };
      for (int count : counts)
        for (const char* dc : {"int_sum", "vector_sum"})
          for (int in_place = 0; in_place < (allows_in_place(api) ? 2 : 1); ++in_place)
            for (int gaps = 0; gaps < (is_vector(api) ? 2 : 1); ++gaps)
              run(MpiCase{api, &data_case(dc), count, 0, in_place == 1, gaps == 1});
      run(MpiCase{api, &data_case("matmul"), large_count, 0, false});
    }
    MPI_Comm_free(&leaders);
    for (const char* allreduce : {"allreduce_pipelined", "allreduce_columns"}) {
      MPI_Comm big = forcing(base, {{"hiercoll_bcast_composition", "bcast_pipelined"},
                                    {"hiercoll_reduce_composition", "reduce_pipelined"},
                                    {"hiercoll_allreduce_composition", allreduce},
                                    {"hiercoll_gather_composition", "gather_pipelined"},
                                    {"hiercoll_scatter_composition", "scatter_pipelined"}});
      int size;
      MPI_Comm_size(big, &size);
      for (ApiOp api : {ApiOp::kBcast, ApiOp::kReduce, ApiOp::kAllreduce, ApiOp::kGather, ApiOp::kScatter})
        for (int root : {0, size - 1})
          for (const char* dc : {"int_sum", "matmul"})
            check(MpiCase{api, &data_case(dc), large_count, root, root != 0 && allows_in_place(api)}, big,
                  /*assert_path=*/false);
      MPI_Comm_free(&big);
    }
  }

  void check_matrix(MPI_Comm comm, const std::vector<int>& counts, int large_count) {
    int size;
    MPI_Comm_size(comm, &size);
    for (ApiOp api : kAllOps) {
      const bool kept_flat = !(api == ApiOp::kBcast || api == ApiOp::kReduce || api == ApiOp::kAllreduce ||
                               api == ApiOp::kScan || api == ApiOp::kExscan || api == ApiOp::kBarrier ||
                               api == ApiOp::kAllgatherv || api == ApiOp::kAllgather || api == ApiOp::kAlltoall ||
                               api == ApiOp::kAlltoallv || api == ApiOp::kAlltoallw ||
                               api == ApiOp::kGather || api == ApiOp::kScatter || api == ApiOp::kReduceScatter ||
                               api == ApiOp::kReduceScatterBlock);
      for (const DataCase& dc : data_cases()) {
        if (!is_reduction(api) && api != ApiOp::kBcast && dc.name != "int_sum" && dc.name != "vector_sum") continue;
        for (int count : counts) {
          if (kept_flat && count > 7) continue;  // flat paths have their own test
          for (int root = 0; root < (is_rooted(api) ? size : 1); ++root)
            for (int in_place = 0; in_place < (allows_in_place(api) ? 2 : 1); ++in_place)
              for (int gaps = 0; gaps < (is_vector(api) ? 2 : 1); ++gaps)
                check(MpiCase{api, &dc, count, root, in_place == 1, gaps == 1}, comm);
        }
        if (api == ApiOp::kBarrier) break;
      }
      // Past the pipelining thresholds (140000 matrices: 2.2 MB), from the
      // first and the last rank.
      if (!kept_flat && api != ApiOp::kBarrier && api != ApiOp::kBcast && api != ApiOp::kReduce &&
          api != ApiOp::kAllreduce)
        for (int root : {0, size - 1})
          for (const char* dc : {"int_sum", "matmul"})
            check(MpiCase{api, &data_case(dc), large_count, root, root != 0 && allows_in_place(api)}, comm);
    }
  }
  int runs_ = 0, hier_runs_ = 0;
};

bool multi_node() {
  const Topology* topo = nullptr;
  get_topology(MPI_COMM_WORLD, &topo);
  return topo->layout->num_nodes > 1;
}

TEST_F(HierMpi, EveryOperationOnWorld) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  check_all(comm, {0, 1, 7, 1000}, 140000);
  if (multi_node()) {
    EXPECT_GT(hier_runs_, 0);
  }
  MPI_Comm_free(&comm);
}

// Bcast where the root and the other ranks use different datatypes of one
// type signature: 7 times 3 doubles at every root and 100003 times 3 at
// the first and the last (counts no group size divides; the latter past
// the flat phases' segment size), and past the size from which the
// pipelined composition runs (8 MiB).
TEST_F(HierMpi, BcastWithDifferentTypes) {
  MPI_Comm comm = forcing(MPI_COMM_WORLD, {{"hiercoll_bcast_composition", "bcast"}});
  const int size = world_size();
  for (int root = 0; root < size; ++root)
    for (const TypedCase& c : typed_pairs(ApiOp::kBcast, 3 * 7, root)) check(c, comm);
  for (int root : {0, size - 1})
    for (const TypedCase& c : typed_pairs(ApiOp::kBcast, 3 * 100003, root)) check(c, comm);
  MPI_Comm pipelined = forcing(MPI_COMM_WORLD, {{"hiercoll_bcast_composition", "bcast_pipelined"}});
  for (int root : {0, size - 1})
    for (const TypedCase& c : typed_pairs(ApiOp::kBcast, 3 * 350003, root)) {
      const std::string ran = check(c, pipelined);
      if (ran.rfind("hier:", 0) == 0) {
        EXPECT_EQ(ran, "hier:bcast_pipelined") << c.describe();
      }
    }
  MPI_Comm_free(&pipelined);
  if (multi_node()) {
    EXPECT_GT(hier_runs_, 0);
  }
  MPI_Comm_free(&comm);
}

// A call that moves no data returns at once; the statistics count it where
// a call with data would go: hier for an operation with compositions, flat
// for one without.
// A call that moves no data is counted on the path a call of one element
// takes on the same communicator: hier where a composition serves it, flat
// on one node, for operations without compositions, for scan on a
// round-robin placement, ...
TEST_F(HierMpi, EmptyCallsCountedWhereACallWithDataGoes) {
  std::vector<int> in(world_size(), 1), out(world_size(), 0);
  const std::vector<std::pair<ApiOp, std::function<int(int)>>> calls = {
      {ApiOp::kBcast, [&](int n) { return MPI_Bcast(in.data(), n, MPI_INT, world_size() - 1, MPI_COMM_WORLD); }},
      {ApiOp::kAllreduce,
       [&](int n) { return MPI_Allreduce(in.data(), out.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); }},
      {ApiOp::kScan, [&](int n) { return MPI_Scan(in.data(), out.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); }},
      {ApiOp::kAlltoall,
       [&](int n) { return MPI_Alltoall(in.data(), n, MPI_INT, out.data(), n, MPI_INT, MPI_COMM_WORLD); }},
  };
  for (const auto& [api, call] : calls) {
    const long hier = local_count(api, Path::kHier), flat = local_count(api, Path::kFlat);
    ASSERT_EQ(call(1), MPI_SUCCESS);
    const bool with_data_hier = local_count(api, Path::kHier) == hier + 1;
    EXPECT_EQ(local_count(api, Path::kHier) + local_count(api, Path::kFlat), hier + flat + 1);
    const long hier2 = local_count(api, Path::kHier), flat2 = local_count(api, Path::kFlat);
    ASSERT_EQ(call(0), MPI_SUCCESS);
    EXPECT_EQ(local_count(api, Path::kHier), hier2 + (with_data_hier ? 1 : 0)) << static_cast<int>(api);
    EXPECT_EQ(local_count(api, Path::kFlat), flat2 + (with_data_hier ? 0 : 1)) << static_cast<int>(api);
  }
}

// Sub-communicators: the ranks in reverse order, and every other rank.
TEST_F(HierMpi, SplitsOfWorld) {
  const int rank = world_rank(), size = world_size();
  MPI_Comm reversed, half;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  check_all(reversed, {1, 7}, 30000);
  check_all(half, {1, 7}, 30000);
  MPI_Comm_free(&reversed);
  MPI_Comm_free(&half);
}

// The socket level from a synthetic hwloc topology with two packages of two
// PUs: local ranks 0-1 on one package, 2-3 on the other.  The socket_level
// targets set HIERCOLL_HWLOC_SYNTHETIC for the whole job (the layout is found
// at MPI_Init); elsewhere this is skipped.
TEST_F(HierMpi, SocketLevel) {
  if (!std::getenv("HIERCOLL_HWLOC_SYNTHETIC")) GTEST_SKIP() << "needs HIERCOLL_HWLOC_SYNTHETIC (socket_level targets)";
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_rank(), &comm);
  const Topology* topo = nullptr;
  ASSERT_EQ(get_topology(comm, &topo), MPI_SUCCESS);
  int most = 0;
  for (int n = 0; n < topo->layout->num_nodes; ++n) most = std::max(most, topo->layout->node_size(n));
  EXPECT_EQ(topo->layout->max_sockets_per_node, most > 2 ? 2 : 1) << topo->layout->describe();
  check_all(comm, {1, 7, 1000}, 140000);
  MPI_Comm_free(&comm);
}

// Hints on a communicator: "flat" and "off" really leave the hierarchical
// path; a forced flat algorithm runs that algorithm.
TEST_F(HierMpi, CommunicatorKnobs) {
  const int size = world_size();
  struct Knob {
    const char* key;
    const char* value;
    const char* expect_prefix;  // what last_algorithm() must start with
  };
  for (const Knob& k : {Knob{"hiercoll", "flat", ""}, Knob{"hiercoll", "off", "native"},
                        Knob{"hiercoll_bcast_algorithm", "chain", "chain"}}) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, k.key, k.value);
    MPI_Comm comm;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    for (int root : {0, size - 1}) {
      const MpiCase c{ApiOp::kBcast, &data_case("int_sum"), 1000, root, false};
      EXPECT_EQ(compare_with_native(c, comm), "");
      const std::string ran = last_algorithm();
      EXPECT_NE(ran.rfind("hier:", 0), 0u) << k.key << "=" << k.value << " ran " << ran;
      EXPECT_EQ(ran.rfind(k.expect_prefix, 0), 0u) << k.key << "=" << k.value << " ran " << ran;
    }
    MPI_Comm_free(&comm);
  }
}

// Forced compositions and inter-node algorithms (hints): where the forced
// one fits, the call runs exactly it and gives MPI's result; where it does
// not, the call goes the normal way (what a communicator without the hint
// runs) and the fallback is counted.
TEST_F(HierMpi, ForcedCompositionAndInterAlgorithm) {
  const int size = world_size();
  const Topology* topo = nullptr;
  ASSERT_EQ(get_topology(MPI_COMM_WORLD, &topo), MPI_SUCCESS);
  const Layout& L = *topo->layout;
  MPI_Comm plain;
  MPI_Comm_dup(MPI_COMM_WORLD, &plain);
  struct Forced {
    const char* key;
    const char* value;
    ApiOp api;
    const char* data;
    int count;
    // last_algorithm() where it fits (an inter-node algorithm alone: its
    // end, after the composition the decision takes); nullptr: it never
    // fits this call
    const char* ran;
    bool inter = false;        // an inter-node algorithm: fits only with several nodes
    bool consecutive = false;  // fits only where node ranks are consecutive
  };
  const Forced cases[] = {
      {"hiercoll_bcast_composition", "bcast_pipelined", ApiOp::kBcast, "int_sum", 1000, "hier:bcast_pipelined"},
      {"hiercoll_bcast_inter_algorithm", "twotree", ApiOp::kBcast, "int_sum", 1000, " inter=twotree", true},
      {"hiercoll_reduce_inter_algorithm", "twotree", ApiOp::kReduce, "int_sum", 1000, " inter=twotree", true},
      {"hiercoll_reduce_inter_algorithm", "twotree", ApiOp::kReduce, "matmul", 1000, " inter=twotree", true, true},
      {"hiercoll_allreduce_inter_algorithm", "ring", ApiOp::kAllreduce, "int_sum", 1000, " inter=ring", true},
      // Scan needs consecutive node ranks (round-robin placement falls back).
      {"hiercoll_scan_composition", "scan", ApiOp::kScan, "int_sum", 100000, "hier:scan", false, true},
  };
  for (const Forced& f : cases) {
    const std::string what = std::string(f.key) + "=" + f.value + " " + f.data;
    const bool fits = f.ran && two_levels(f.api, L) && (!f.inter || L.num_nodes > 1) &&
                      (!f.consecutive || L.consecutive);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, f.key, f.value);
    MPI_Comm comm;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    for (int root : is_rooted(f.api) ? std::vector<int>{0, size - 1} : std::vector<int>{0}) {
      const MpiCase c{f.api, &data_case(f.data), f.count, root, false};
      EXPECT_EQ(compare_with_native(c, plain), "") << what;
      const std::string normal = last_algorithm();
      const long fallbacks = local_fallbacks(f.api);
      EXPECT_EQ(compare_with_native(c, comm), "") << what;
      const std::string ran = last_algorithm();
      if (fits && f.ran[0] == ' ') {
        EXPECT_EQ(ran.rfind("hier:", 0), 0u) << what << " ran " << ran << " on " << L.describe();
        EXPECT_TRUE(ran.size() > std::strlen(f.ran) && ran.compare(ran.size() - std::strlen(f.ran), std::string::npos, f.ran) == 0)
            << what << " ran " << ran << " on " << L.describe();
        EXPECT_EQ(local_fallbacks(f.api), fallbacks) << what;
      } else if (fits) {
        EXPECT_EQ(ran, f.ran) << what << " on " << L.describe();
        EXPECT_EQ(local_fallbacks(f.api), fallbacks) << what;
      } else {
        EXPECT_EQ(ran, normal) << what << " on " << L.describe();
        EXPECT_EQ(local_fallbacks(f.api), fallbacks + 1) << what << " on " << L.describe();
      }
      ++runs_;
    }
    MPI_Comm_free(&comm);
  }
  MPI_Comm_free(&plain);
}

// The node-aggregated gatherv and scatterv (forced: the rules keep them
// for large groups) and their leaders' binomial tree, both after the
// count exchange: every root, in place, irregular counts with zeros,
// displacements in order and reversed with gaps, a derived datatype.
TEST_F(HierMpi, VectorCompositionsEveryRoot) {
  const int size = world_size();
  const Topology* topo = nullptr;
  ASSERT_EQ(get_topology(MPI_COMM_WORLD, &topo), MPI_SUCCESS);
  const Layout& L = *topo->layout;
  for (ApiOp api : {ApiOp::kGatherv, ApiOp::kScatterv})
    for (const char* inter : {"", "binomial"}) {
      const std::string op = api == ApiOp::kGatherv ? "gatherv" : "scatterv";
      MPI_Info info;
      MPI_Info_create(&info);
      MPI_Info_set(info, ("hiercoll_" + op + "_composition").c_str(), op.c_str());
      if (*inter) MPI_Info_set(info, ("hiercoll_" + op + "_inter_algorithm").c_str(), inter);
      MPI_Comm comm;
      MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
      MPI_Info_free(&info);
      const std::string want = "hier:" + op + (*inter && L.num_nodes > 1 ? std::string(" inter=") + inter : "");
      for (const char* dc : {"int_sum", "vector_sum"})
        for (int count : {0, 1, 7})
          for (int root = 0; root < size; ++root)
            for (bool in_place : {false, true})
              for (bool gaps : {false, true}) {
                const MpiCase c{api, &data_case(dc), count, root, in_place, gaps};
                EXPECT_EQ(compare_with_native(c, comm), "") << c.describe() << " " << inter;
                if (two_levels(api, L)) {
                  EXPECT_EQ(last_algorithm(), want) << c.describe();
                }
                ++runs_;
              }
      MPI_Comm_free(&comm);
    }
}

// An unknown composition or inter-node algorithm fails the call with
// MPI_ERR_ARG on every rank (the message lists the known names).
TEST_F(HierMpi, UnknownForcedNamesAreErrors) {
  for (const char* key : {"hiercoll_bcast_composition", "hiercoll_bcast_inter_algorithm"}) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, key, "no_such_name");
    MPI_Comm comm;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int x = 0, cls = MPI_SUCCESS;
    MPI_Error_class(MPI_Bcast(&x, 1, MPI_INT, 0, comm), &cls);
    EXPECT_EQ(cls, MPI_ERR_ARG) << key;
    MPI_Comm_free(&comm);
  }
}

}  // namespace
}  // namespace hiercoll::testing
