// The knobs (runtime/settings.h): the environment forms (this target sets
// some in its environment) and the per-communicator info hints, good names
// and unknown ones; an unknown name is an error that lists the known ones.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "runtime/settings.h"

namespace hiercoll::testing {
namespace {

int idx(Op op) { return static_cast<int>(op); }

// env_settings() overridden by the given hints.
Settings with_hints(const std::vector<std::pair<const char*, const char*>>& hints) {
  MPI_Info info;
  MPI_Info_create(&info);
  for (const auto& h : hints) MPI_Info_set(info, h.first, h.second);
  Settings s = apply_info(env_settings(), info);
  MPI_Info_free(&info);
  return s;
}

// tests/BUILD: HIERCOLL_BCAST_COMPOSITION=bcast_pipelined,
// HIERCOLL_SCAN_INTER_ALGORITHM=chain.
TEST(Settings, EnvironmentForms) {
  const Settings& s = env_settings();
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.composition[idx(Op::kBcast)], "bcast_pipelined");
  EXPECT_EQ(s.inter_algorithm[idx(Op::kScan)], "chain");
  EXPECT_EQ(s.composition[idx(Op::kReduce)], "");
  EXPECT_EQ(s.inter_algorithm[idx(Op::kBcast)], "");
  EXPECT_EQ(s.algorithm[idx(Op::kBcast)], "");
}

TEST(Settings, HintsWithKnownNames) {
  const Settings s = with_hints({{"hiercoll_bcast_composition", "bcast"},
                                 {"hiercoll_allreduce_composition", "allreduce_columns"},
                                 {"hiercoll_barrier_composition", "barrier"},
                                 {"hiercoll_bcast_inter_algorithm", "twotree"},
                                 {"hiercoll_allreduce_inter_algorithm", "twotree"},  // allreduce_pipelined's
                                 {"hiercoll_exscan_inter_algorithm", "recursive_doubling"},
                                 {"hiercoll_reduce_algorithm", "rabenseifner"}});
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.composition[idx(Op::kBcast)], "bcast");  // the hint overrides the environment
  EXPECT_EQ(s.composition[idx(Op::kAllreduce)], "allreduce_columns");
  EXPECT_EQ(s.composition[idx(Op::kBarrier)], "barrier");
  EXPECT_EQ(s.inter_algorithm[idx(Op::kBcast)], "twotree");
  EXPECT_EQ(s.inter_algorithm[idx(Op::kAllreduce)], "twotree");
  EXPECT_EQ(s.inter_algorithm[idx(Op::kExscan)], "recursive_doubling");
  EXPECT_EQ(s.inter_algorithm[idx(Op::kScan)], "chain");  // from the environment
  EXPECT_EQ(s.algorithm[idx(Op::kReduce)], "rabenseifner");
}

TEST(Settings, ArrivalOrderHint) {
  EXPECT_FALSE(env_settings().dynamic);  // off by default
  Settings s = with_hints({{"hiercoll_dynamic", "depth"}});
  EXPECT_EQ(s.error, "");
  EXPECT_TRUE(s.dynamic);
  EXPECT_EQ(s.dynamic_fill, FillOrder::kDepthFirst);
  s = with_hints({{"hiercoll_dynamic", "breadth"}});
  EXPECT_TRUE(s.dynamic);
  EXPECT_EQ(s.dynamic_fill, FillOrder::kBreadthFirst);
  s = with_hints({{"hiercoll_dynamic", "off"}});
  EXPECT_FALSE(s.dynamic);
  s = with_hints({{"hiercoll_dynamic", "yes"}});
  EXPECT_EQ(s.error, "hiercoll_dynamic=yes: unknown arrival-order setting (off, depth or breadth)");
}

TEST(Settings, UnknownNamesAreErrorsListingTheKnownOnes) {
  const struct {
    const char* key;
    const char* value;
    const char* error;
  } cases[] = {
      {"hiercoll_bcast_composition", "reduce",
       "hiercoll_bcast_composition=reduce: unknown bcast composition (known: bcast, bcast_pipelined)"},
      {"hiercoll_allreduce_composition", "ring",
       "hiercoll_allreduce_composition=ring: unknown allreduce composition (known: allreduce, allreduce_pipelined, "
       "allreduce_columns)"},
      {"hiercoll_alltoall_composition", "alltoall",
       "hiercoll_alltoall_composition=alltoall: unknown alltoall composition (known: none)"},
      {"hiercoll_bcast_inter_algorithm", "recursive_doubling",
       "hiercoll_bcast_inter_algorithm=recursive_doubling: unknown bcast inter-node algorithm (known: binomial, "
       "scatter_recursive_doubling, scatter_ring, chain, pipelined_binary_tree, twotree, linear)"},
      {"hiercoll_scan_inter_algorithm", "nope",
       "hiercoll_scan_inter_algorithm=nope: unknown scan inter-node algorithm (known: recursive_doubling, "
       "pipelined_binary_tree, twotree, chain)"},
      {"hiercoll_barrier_inter_algorithm", "dissemination",
       "hiercoll_barrier_inter_algorithm=dissemination: unknown barrier inter-node algorithm (known: none)"},
      {"hiercoll_bcast_algorithm", "bcast_pipelined",
       "hiercoll_bcast_algorithm=bcast_pipelined: unknown bcast algorithm (known: binomial, "
       "scatter_recursive_doubling, scatter_ring, chain, pipelined_binary_tree, twotree, linear)"},
  };
  for (const auto& c : cases) EXPECT_EQ(with_hints({{c.key, c.value}}).error, c.error) << c.key;
  // The first error is kept when several knobs are wrong.
  EXPECT_EQ(with_hints({{"hiercoll_bcast_composition", "x"}, {"hiercoll_reduce_composition", "y"}}).error.rfind(
                "hiercoll_bcast_composition=x: ", 0),
            0u);
}

}  // namespace
}  // namespace hiercoll::testing
