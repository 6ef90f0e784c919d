// The knobs (runtime/settings.h): the environment forms (this target sets
// some in its environment) and the per-communicator info hints, good names
// and unknown ones; an unknown name is an error that lists the known ones.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/registry.h"
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
  EXPECT_EQ(s.error, "hiercoll_dynamic=yes: unknown arrival-order setting (known: off, depth, breadth)");
  EXPECT_TRUE(env_settings().dynamic_leaders);  // a node's first arrival leads it by default
  EXPECT_FALSE(with_hints({{"hiercoll_dynamic_leaders", "fixed"}}).dynamic_leaders);
  EXPECT_TRUE(with_hints({{"hiercoll_dynamic_leaders", "first"}}).dynamic_leaders);
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
      {"hiercoll_gather_composition", "gatherv",
       "hiercoll_gather_composition=gatherv: unknown gather composition (known: gather, gather_pipelined)"},
      {"hiercoll_alltoall_composition", "alltoallv",
       "hiercoll_alltoall_composition=alltoallv: unknown alltoall composition (known: alltoall, alltoall_leaders)"},
      {"hiercoll_bcast_inter_algorithm", "recursive_doubling",
       "hiercoll_bcast_inter_algorithm=recursive_doubling: unknown bcast inter-node algorithm (known: binomial, "
       "scatter_recursive_doubling, scatter_ring, chain, pipelined_binary_tree, twotree, linear, "
       "binomial_segmented)"},
      {"hiercoll_scan_inter_algorithm", "nope",
       "hiercoll_scan_inter_algorithm=nope: unknown scan inter-node algorithm (known: recursive_doubling, "
       "pipelined_binary_tree, twotree, chain)"},
      {"hiercoll_barrier_inter_algorithm", "dissemination",
       "hiercoll_barrier_inter_algorithm=dissemination: unknown barrier inter-node algorithm (known: none)"},
      {"hiercoll_bcast_algorithm", "bcast_pipelined",
       "hiercoll_bcast_algorithm=bcast_pipelined: unknown bcast algorithm (known: binomial, "
       "scatter_recursive_doubling, scatter_ring, chain, pipelined_binary_tree, twotree, linear, "
       "binomial_segmented)"},
  };
  for (const auto& c : cases) EXPECT_EQ(with_hints({{c.key, c.value}}).error, c.error) << c.key;
  // The first error is kept when several knobs are wrong.
  EXPECT_EQ(with_hints({{"hiercoll_bcast_composition", "x"}, {"hiercoll_reduce_composition", "y"}}).error.rfind(
                "hiercoll_bcast_composition=x: ", 0),
            0u);
}

// Settings from an environment holding only `env`.
Settings from_env(const std::map<std::string, std::string>& env) {
  return settings_from_env([&](const char* key) -> const char* {
    const auto it = env.find(key);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

// One knob: values it takes (an empty one as if unset), and values it
// refuses with the start of the reason.
struct KnobCase {
  std::string env, info;
  std::vector<std::string> good, bad;
  std::string why;
};

std::vector<KnobCase> knob_cases() {
  const char* kNotBytes = "not a byte count (a whole number, 0 or more)";
  std::vector<KnobCase> v = {
      {"HIERCOLL_MODE", "hiercoll", {"", "hier", "flat", "off"}, {"xyz", "HIER", "flat "},
       "unknown mode (known: hier, flat, off)"},
      {"HIERCOLL_SEGMENT_BYTES", "hiercoll_segment_bytes", {"", "0", "100", "1048576"},
       {"-1", "12abc", " 5", "+5", "1e3", "99999999999999999999"}, kNotBytes},
      // An unusable file is said once and the rules kept (runtime/tuning.h).
      {"HIERCOLL_TUNING_FILE", "hiercoll_tuning_file", {"none", "/no/such/file.json"}, {}, ""},
      {"HIERCOLL_SOCKET_LEVEL", "", {"", "package", "numa", "none"}, {"xyz", "socket", "NUMA"},
       "unknown socket level (known: package, numa, none)"},
      {"HIERCOLL_HWLOC_SYNTHETIC", "", {"", "package:2 core:2 pu:1"}, {"xyz", "package:two"},
       "not a synthetic topology hwloc accepts"},
      {"HIERCOLL_PROFILE", "", {"profile.json"}, {}, ""},
      // A figures file that cannot be read is said at MPI_Init, not refused
      // per call (runtime/figures_probe.h).
      {"HIERCOLL_FIGURES", "", {"", "builtin", "probe", "/no/such/figures.json"}, {}, ""},
      {"HIERCOLL_STATS", "", {"", "0", "1"}, {"yes", "2", "true"}, "not a switch (known: 0, 1)"},
      {"HIERCOLL_VERBOSE", "", {"", "0", "1"}, {"yes", "2", "on"}, "not a switch (known: 0, 1)"},
      {"HIERCOLL_PROGRESS_THREAD", "", {"", "0", "1"}, {"yes", "2"}, "not a switch (known: 0, 1)"},
      {"HIERCOLL_ONLINE_TUNING", "hiercoll_online_tuning", {"", "0", "1"}, {"yes", "2"},
       "not a switch (known: 0, 1)"},
      {"HIERCOLL_DYNAMIC", "hiercoll_dynamic", {"", "off", "depth", "breadth"}, {"yes", "Depth"},
       "unknown arrival-order setting (known: off, depth, breadth)"},
      {"HIERCOLL_DYNAMIC_LEADERS", "hiercoll_dynamic_leaders", {"", "first", "fixed"}, {"yes", "First"},
       "unknown node leader setting (known: first, fixed)"},
  };
  for (int i = 0; i < kNumOps; ++i) {
    const std::string op = op_name(static_cast<Op>(i));
    std::string upper = op;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::vector<const Algorithm*> algs = algorithms_for(static_cast<Op>(i));
    v.push_back({"HIERCOLL_" + upper + "_ALGORITHM", "hiercoll_" + op + "_algorithm", {"", algs.front()->name},
                 {"nope", "Binomial"}, "unknown " + op + " algorithm (known: "});
    v.push_back({"HIERCOLL_" + upper + "_COMPOSITION", "hiercoll_" + op + "_composition", {""}, {"nope"},
                 "unknown " + op + " composition (known: "});
    v.push_back({"HIERCOLL_" + upper + "_INTER_ALGORITHM", "hiercoll_" + op + "_inter_algorithm", {""}, {"nope"},
                 "unknown " + op + " inter-node algorithm (known: "});
  }
  return v;
}

// The table above covers every knob the library reads.
TEST(Settings, EveryKnobIsInTheTable) {
  std::set<std::pair<std::string, std::string>> table, library;
  for (const KnobCase& c : knob_cases()) table.insert({c.env, c.info});
  for (const KnobName& k : knob_names()) library.insert({k.env, k.info});
  EXPECT_EQ(table, library);
}

// Every knob, from the environment and as a hint: good values are taken,
// bad ones refused alike ("KEY=value: why").
TEST(Settings, EveryKnobRefusesBadValuesTheSameWay) {
  for (const KnobCase& c : knob_cases()) {
    for (const std::string& v : c.good) {
      EXPECT_EQ(from_env({{c.env, v}}).error, "") << c.env << "=" << v;
      if (!c.info.empty() && !v.empty()) {
        EXPECT_EQ(with_hints({{c.info.c_str(), v.c_str()}}).error, "") << c.info;
      }
    }
    for (const std::string& v : c.bad) {
      EXPECT_EQ(from_env({{c.env, v}}).error.rfind(c.env + "=" + v + ": " + c.why, 0), 0u)
          << c.env << "=" << v << " gave: " << from_env({{c.env, v}}).error;
      // An info value cannot be empty.
      if (c.info.empty() || v.empty() || c.info.size() >= MPI_MAX_INFO_KEY) continue;
      const std::string error = with_hints({{c.info.c_str(), v.c_str()}}).error;
      EXPECT_EQ(error.rfind(c.info + "=" + v + ": " + c.why, 0), 0u) << c.info << "=" << v << " gave: " << error;
    }
  }
}

TEST(Settings, ValuesReachTheSettings) {
  const Settings s = from_env({{"HIERCOLL_MODE", "flat"},
                               {"HIERCOLL_SEGMENT_BYTES", "4096"},
                               {"HIERCOLL_STATS", "1"},
                               {"HIERCOLL_VERBOSE", "1"},
                               {"HIERCOLL_PROFILE", "p.json"},
                               {"HIERCOLL_TUNING_FILE", "none"}});
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.mode, Mode::kFlat);
  EXPECT_EQ(s.segment_bytes, 4096);
  EXPECT_TRUE(s.stats);
  EXPECT_TRUE(s.verbose);
  EXPECT_EQ(s.profile_file, "p.json");
  EXPECT_EQ(s.tuning_file, "");
  EXPECT_FALSE(from_env({{"HIERCOLL_VERBOSE", "0"}}).verbose);
}

}  // namespace
}  // namespace hiercoll::testing
