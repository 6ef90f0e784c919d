// Every hierarchical composition, in one process, on synthetic layouts far
// larger than this machine: every rank's schedule is composed for the
// layout and all of them run in the in-process executor against the rank-
// order reference (tests/support/inproc_check.h).  Layouts: 2x2, 3x2,
// uneven 3+1+2, round-robin placement, nodes with sockets (contiguous and
// interleaved), one node with two sockets, 64 nodes x 16 ranks, uneven
// large; every root on the small ones and a sample (masters and
// non-masters of several nodes) on the large ones; every data case
// (non-commutative matrix product included), counts 0, 1, 7, 33 and above
// a million, in place, tiny segments, and every flat algorithm in each
// phase.  Degenerate layouts must stay flat.  The selection: by size and
// shape, and with a forced composition or inter-node algorithm (the knobs),
// which is used where it fits and reported unfit where it does not.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "hier/hier_registry.h"
#include "hier/node_counts.h"
#include "select/flat_rules.h"
#include "select/machine.h"
#include "tests/support/inproc_check.h"
#include "tests/support/sanitize_mode.h"
#include "topo/topology.h"

namespace hiercoll::testing {
namespace {

// ---- synthetic layouts -----------------------------------------------------

struct NamedLayout {
  std::string name;
  Layout layout;
};

// Nodes of the given sizes filled with consecutive ranks (or, round_robin,
// ranks dealt over the nodes that still have room); each node split into
// `sockets` sockets, contiguous runs of local ranks or interleaved.
Layout synthetic(const std::vector<int>& sizes, bool round_robin = false, int sockets = 1, bool interleaved = false) {
  std::vector<int> key, local;
  if (!round_robin) {
    for (size_t n = 0; n < sizes.size(); ++n)
      for (int i = 0; i < sizes[n]; ++i) key.push_back(static_cast<int>(n)), local.push_back(i);
  } else {
    std::vector<int> filled(sizes.size(), 0);
    int total = 0;
    for (int s : sizes) total += s;
    for (size_t n = 0; static_cast<int>(key.size()) < total; n = (n + 1) % sizes.size())
      if (filled[n] < sizes[n]) key.push_back(static_cast<int>(n)), local.push_back(filled[n]++);
  }
  std::vector<int> socket(key.size(), 0);
  for (size_t r = 0; r < key.size(); ++r) {
    const int k = sizes[key[r]];
    socket[r] = interleaved ? local[r] % sockets : local[r] * sockets / k;
  }
  return make_layout(key, socket, sockets > 1 ? "package" : "none");
}

std::vector<int> uneven_sizes(int nodes) {
  std::vector<int> v;
  for (int n = 0; n < nodes; ++n) v.push_back((n * 5) % 11 + 1);  // 1..11 ranks
  return v;
}

const std::vector<NamedLayout>& small_layouts() {
  static const std::vector<NamedLayout> v = {
      {"2x2", synthetic({2, 2})},
      {"3x2", synthetic({2, 2, 2})},
      {"uneven_3_1_2", synthetic({3, 1, 2})},
      {"4x2_round_robin", synthetic({2, 2, 2, 2}, true)},
      {"uneven_round_robin_3_1_2", synthetic({3, 1, 2}, true)},
      {"2x4_two_sockets", synthetic({4, 4}, false, 2)},
      {"3_5_2_two_sockets", synthetic({3, 5, 2}, false, 2)},
      {"2x4_interleaved_sockets", synthetic({4, 4}, false, 2, true)},
      {"1x8_two_sockets", synthetic({8}, false, 2)},
  };
  return v;
}

// Smaller under the sanitizers, which slow the checks down about ten times.
const std::vector<NamedLayout>& large_layouts() {
  static const std::vector<NamedLayout> v =
      sanitize_mode() ? std::vector<NamedLayout>{{"16x4", synthetic(std::vector<int>(16, 4))},
                                                 {"uneven_10_nodes", synthetic(uneven_sizes(10))},
                                                 {"8x4_round_robin", synthetic(std::vector<int>(8, 4), true)},
                                                 {"8x8_four_sockets", synthetic(std::vector<int>(8, 8), false, 4)}}
                      : std::vector<NamedLayout>{{"64x16", synthetic(std::vector<int>(64, 16))},
                                                 {"uneven_40_nodes", synthetic(uneven_sizes(40))},
                                                 {"16x8_round_robin", synthetic(std::vector<int>(16, 8), true)},
                                                 {"16x8_four_sockets", synthetic(std::vector<int>(16, 8), false, 4)}};
  return v;
}

// Masters and non-masters of the first, a middle and the last node.
std::vector<int> sample_roots(const Layout& L) {
  std::vector<int> roots;
  for (int n : {0, L.num_nodes / 2, L.num_nodes - 1}) {
    const std::vector<int>& m = L.node_ranks[n];
    roots.push_back(m.front());
    if (m.size() > 1) roots.push_back(m[m.size() / 2]);
    roots.push_back(m.back());
  }
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  return roots;
}

// ---- running a composition -------------------------------------------------

struct Case {
  const HierComposition* comp;
  const Layout* layout;
  int root = 0;
  int64_t count = 7;
  const DataCase* data = nullptr;
  bool in_place = false;
  int64_t seg_units = 0;   // 0: the choice's own
  const Algorithm* inter = nullptr;
  const Algorithm* intra = nullptr;
  int64_t segment_bytes = 0;  // passed to make_choice
  bool gaps = false;          // v-variants: reversed displacements with gaps
};

class HierComp : public ::testing::TestWithParam<const HierComposition*> {
 protected:
  // Runs if the composition applies; "" or what failed.
  std::string run(const Case& r) {
    Scenario sc;
    sc.op = r.comp->op;
    sc.p = r.layout->size;
    sc.root = is_rooted(sc.op) ? r.root : 0;
    sc.count = r.count;
    sc.data = r.data ? r.data : &data_case("int_sum");
    sc.in_place = r.in_place;
    sc.gaps = r.gaps;
    sc.all_counts = (r.comp->needs & kNeedAllCounts) != 0;
    if (!scenario_applies(sc)) return "";
    const CollArgs a0 = scenario_args(sc, 0);
    const LayoutFacts F = layout_facts(*r.layout);
    if (!composition_applies(*r.comp, *r.layout, F, a0)) return "";
    auto choice = std::make_shared<HierChoice>(
        make_choice(*r.comp, *r.layout, F, a0, type_bytes(*sc.data), r.segment_bytes));
    if (r.seg_units > 0) choice->seg_units = r.seg_units;
    choice->inter = r.inter;
    choice->intra = r.intra;
    const Layout* layout = r.layout;
    // Alltoallv's count exchange (hier/node_counts.h), from every rank's
    // arguments, in elements (one datatype on every rank here).
    const bool node_counts = sc.all_counts && sc.op == Op::kAlltoallv;
    const bool everywhere = (r.comp->needs & kNodeRowsEverywhere) != 0;
    const Scenario plain = sc;
    sc.build = [choice, layout, node_counts, everywhere, plain](const CollArgs& a) {
      if (!node_counts) return build_composed(*choice, *layout, a);
      CollArgs exchanged = a;
      exchanged.node_counts = node_counts_of(*layout, a.rank, everywhere,
                                             [&](int j) { return count_row(scenario_args(plain, j), 1, 1); });
      return build_composed(*choice, *layout, exchanged);
    };
    sc.name = std::string("hier:") + r.comp->name + (r.inter ? std::string(" inter=") + r.inter->name : "") +
              (r.intra ? std::string(" intra=") + r.intra->name : "") + " seg=" + std::to_string(choice->seg_units);
    ++ran_;
    return check_inprocess(sc);
  }
  void TearDown() override { RecordProperty("scenarios", ran_); }
  int ran_ = 0;
};

#define RUN_OR_FAIL(r, where)                      \
  do {                                             \
    const std::string err_ = run(r);               \
    ASSERT_EQ(err_, "") << (where);                \
  } while (0)

TEST_P(HierComp, SmallLayoutsEveryRootEveryDataCase) {
  const HierComposition* comp = GetParam();
  for (const NamedLayout& nl : small_layouts()) {
    const int roots = is_rooted(comp->op) ? nl.layout.size : 1;
    for (const DataCase& dc : data_cases())
      for (int64_t count : sanitize_mode() ? std::vector<int64_t>{0, 7} : std::vector<int64_t>{0, 1, 7, 33})
        for (bool in_place : {false, true})
          for (int root = 0; root < roots; ++root)
            for (int64_t seg : {int64_t(0), int64_t(3)})
              for (int gaps = 0; gaps < (is_v_op(comp->op) ? 2 : 1); ++gaps) {
                Case r{comp, &nl.layout, root, count, &dc, in_place, seg};
                r.gaps = gaps == 1;
                RUN_OR_FAIL(r, nl.name);
              }
  }
  EXPECT_GT(ran_, 0);
}

TEST_P(HierComp, LargeLayoutsSampledRoots) {
  const HierComposition* comp = GetParam();
  for (const NamedLayout& nl : large_layouts()) {
    const std::vector<int> roots = is_rooted(comp->op) ? sample_roots(nl.layout) : std::vector<int>{0};
    for (const char* dc : {"int_sum", "matmul"})
      for (int root : roots)
        for (bool in_place : {false, true}) {
          Case r{comp, &nl.layout, root, 9, &data_case(dc), in_place, 2};
          RUN_OR_FAIL(r, nl.name);
        }
  }
  EXPECT_GT(ran_, 0);
}

// Every flat algorithm of the phase's operation in each phase position
// (where it fits; otherwise the phase rules decide).
TEST_P(HierComp, EveryFlatAlgorithmInEachPhase) {
  const HierComposition* comp = GetParam();
  std::vector<Op> phase_ops;
  switch (comp->op) {
    case Op::kAllreduce: phase_ops = {Op::kReduce, Op::kAllreduce, Op::kBcast}; break;
    case Op::kScan: case Op::kExscan: phase_ops = {Op::kScan, Op::kExscan, Op::kBcast}; break;
    case Op::kAllgather: phase_ops = {Op::kAllgatherv, Op::kBcast}; break;
    case Op::kAlltoall: phase_ops = {Op::kAlltoallv}; break;
    case Op::kGather: phase_ops = {Op::kGatherv}; break;
    case Op::kScatter: phase_ops = {Op::kScatterv}; break;
    default: phase_ops = {comp->op}; break;
  }
  // (One layout and count under the sanitizers: uneven nodes, or equal
  // ones for the compositions that need them.)
  const char* sanitized = comp->needs & kNeedUniform ? "3x2" : "uneven_3_1_2";
  const std::vector<const char*> layouts = sanitize_mode() ? std::vector<const char*>{sanitized}
                                                           : std::vector<const char*>{"3x2", "uneven_3_1_2",
                                                                                      "3_5_2_two_sockets"};
  for (const char* name : layouts) {
    const NamedLayout& nl = *std::find_if(small_layouts().begin(), small_layouts().end(),
                                          [&](const NamedLayout& x) { return x.name == name; });
    for (Op op : phase_ops)
      for (const Algorithm* alg : algorithms_for(op))
        for (bool as_inter : {true, false})
          for (const char* dc : {"int_sum", "matmul"})
            for (int root : {0, 1, nl.layout.size - 1})
              for (int64_t count : sanitize_mode() ? std::vector<int64_t>{33} : std::vector<int64_t>{7, 33}) {
                Case r{comp, &nl.layout, root, count, &data_case(dc), false, 2};
                (as_inter ? r.inter : r.intra) = alg;
                RUN_OR_FAIL(r, nl.name);
              }
  }
  EXPECT_GT(ran_, 0);
}

TEST_P(HierComp, SegmentSizes) {
  const HierComposition* comp = GetParam();
  for (const char* name : {"2x2", "uneven_3_1_2", "2x4_two_sockets"}) {
    const NamedLayout& nl = *std::find_if(small_layouts().begin(), small_layouts().end(),
                                          [&](const NamedLayout& x) { return x.name == name; });
    for (int64_t seg : {1, 2, 5, 64, 1000})
      for (int root : {0, nl.layout.size - 1}) {
        Case r{comp, &nl.layout, root, 200, &data_case("matmul"), false, seg};
        RUN_OR_FAIL(r, nl.name);
        r.in_place = true;
        RUN_OR_FAIL(r, nl.name);
      }
  }
  EXPECT_GT(ran_, 0);
}

// Above a million elements with the segment sizes the library would choose.
// (A sixteenth of that under the sanitizers.)
TEST_P(HierComp, MoreThanAMillionElements) {
  const HierComposition* comp = GetParam();
  const int64_t count = (sanitize_mode() ? 1 << 16 : 1 << 20) + 3;
  for (const char* name : {"2x2", "uneven_3_1_2"}) {
    const NamedLayout& nl = *std::find_if(small_layouts().begin(), small_layouts().end(),
                                          [&](const NamedLayout& x) { return x.name == name; });
    for (bool in_place : {false, true}) {
      Case r{comp, &nl.layout, 1, count, &data_case("int_sum"), in_place, 0};
      RUN_OR_FAIL(r, nl.name);
    }
    // A forced segment (HIERCOLL_SEGMENT_BYTES) of 64 KiB.
    Case r{comp, &nl.layout, nl.layout.size - 1, count, &data_case("double_max"), false, 0};
    r.segment_bytes = 64 * 1024;
    RUN_OR_FAIL(r, nl.name);
  }
  EXPECT_GT(ran_, 0);
}

// Shapes where no composition applies: they must take the flat path.
TEST_P(HierComp, DegenerateLayoutsStayFlat) {
  const HierComposition* comp = GetParam();
  CollArgs a;
  a.op = comp->op;
  a.count = 100;
  for (const Layout& L : {synthetic({4}), synthetic({1, 1, 1, 1}), synthetic({1}), synthetic({8}, false, 2, true)}) {
    a.size = L.size;
    // One node with two interleaved sockets still has two levels for
    // compositions that go three levels deep.
    const bool socket_levels = L.num_nodes == 1 && L.max_sockets_per_node > 1 && !(comp->needs & kTwoLevelsOnly);
    EXPECT_EQ(composition_applies(*comp, L, layout_facts(L), a), socket_levels) << L.describe();
    EXPECT_EQ(layout_facts(L).hierarchical(), L.num_nodes == 1 && L.max_sockets_per_node > 1) << L.describe();
  }
}

std::string comp_name(const ::testing::TestParamInfo<const HierComposition*>& info) {
  return info.param->name;
}

std::vector<const HierComposition*> every_composition() {
  std::vector<const HierComposition*> v;
  for (const HierComposition& c : all_compositions()) v.push_back(&c);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Registry, HierComp, ::testing::ValuesIn(every_composition()), comp_name);

// ---- selection --------------------------------------------------------------

CollArgs call_args(const Layout& L, Op op, int64_t count, bool commutative = true) {
  CollArgs a;
  a.op = op;
  a.size = L.size;
  a.count = count;
  a.commutative = commutative;
  return a;
}

// The name of the choice for the call (4-byte units), "flat" for none;
// *unfit: what was forced but not used.
std::string chosen(const Layout& L, Op op, int64_t count, bool commutative = true, const HierForced& forced = {},
                   std::string* unfit = nullptr) {
  const HierChoice* c = choose_composition(L, layout_facts(L), call_args(L, op, count, commutative), 4, 0, forced, unfit);
  return c ? c->name : "flat";
}

TEST(HierSelection, TablesNameRegisteredEntries) { EXPECT_EQ(check_hier_tables(), ""); }

TEST(HierSelection, DegenerateShapesAreFlat) {
  for (Op op : {Op::kBcast, Op::kReduce, Op::kAllreduce, Op::kBarrier, Op::kScan, Op::kExscan}) {
    EXPECT_EQ(chosen(synthetic({4}), op, 10), "flat") << op_name(op);
    EXPECT_EQ(chosen(synthetic({1, 1, 1}), op, 10), "flat") << op_name(op);
  }
}

// The rules know no size (sizes are the model's): an operation the model
// decides takes its first composition that applies, the plain one; the
// v-variants, which the model does not decide, go by the group.
TEST(HierSelection, ByShapeAndGroupAlone) {
  const Layout two = synthetic({2, 2}), rr = synthetic({2, 2, 2, 2}, true), uneven = synthetic({3, 1, 2});
  const Layout sixteen = synthetic({4, 4, 4, 4});
  for (Op op : {Op::kBcast, Op::kReduce, Op::kAllreduce, Op::kBarrier, Op::kScan, Op::kExscan, Op::kAllgather,
                Op::kAlltoall, Op::kGather, Op::kScatter, Op::kReduceScatter}) {
    const std::string plain = std::string("hier:") + op_name(op);
    for (const Layout* L : {&two, &uneven, &sixteen})
      for (int64_t count : {int64_t{1}, int64_t{1} << 14, int64_t{1} << 22})
        EXPECT_EQ(chosen(*L, op, count), plain) << op_name(op) << " " << L->size << " " << count;
  }
  // Round-robin placement: commutative reductions stay hierarchical, order-
  // dependent ones and scans go flat.
  EXPECT_EQ(chosen(rr, Op::kReduce, 8, true), "hier:reduce");
  EXPECT_EQ(chosen(rr, Op::kReduce, 8, false), "flat");
  EXPECT_EQ(chosen(rr, Op::kAllreduce, 1 << 18, false), "flat");
  EXPECT_EQ(chosen(rr, Op::kScan, 8), "flat");
  EXPECT_EQ(chosen(rr, Op::kExscan, 8), "flat");
  EXPECT_EQ(chosen(rr, Op::kBcast, 8), "hier:bcast");
  // The v-variants: allgatherv always composed, gatherv and scatterv from
  // 64 ranks, alltoallv flat.
  const Layout big = synthetic(std::vector<int>(8, 8));
  for (const Layout* L : {&two, &uneven, &big}) {
    EXPECT_EQ(chosen(*L, Op::kAllgatherv, 8), "hier:allgatherv");
    EXPECT_EQ(chosen(*L, Op::kAlltoallv, 8), "flat");
    EXPECT_EQ(chosen(*L, Op::kGatherv, 8), L == &big ? "hier:gatherv" : "flat");
    EXPECT_EQ(chosen(*L, Op::kScatterv, 8), L == &big ? "hier:scatterv" : "flat");
  }
}

TEST(HierSelection, ChoicesAreInterned) {
  const Layout two = synthetic({2, 2});
  CollArgs a;
  a.op = Op::kBcast;
  a.size = 4;
  a.count = 100;
  const LayoutFacts F = layout_facts(two);
  EXPECT_EQ(choose_composition(two, F, a, 4, 0), choose_composition(two, F, a, 4, 0));
  EXPECT_NE(choose_composition(two, F, a, 4, 0), choose_composition(two, F, a, 8, 0));
}

// ---- forced compositions and inter-node algorithms (knobs) -------------------

HierForced composition(const std::string& name) { return HierForced{name, ""}; }
HierForced inter(const std::string& name) { return HierForced{"", name}; }

// A forced composition is chosen wherever it applies, whatever the size
// rules say; nothing is reported as unfit.
TEST(HierForcedSelection, CompositionWhereItApplies) {
  const Layout two = synthetic({2, 2}), uneven = synthetic({3, 1, 2}), rr = synthetic({2, 2, 2, 2}, true);
  std::string unfit = "?";
  EXPECT_EQ(chosen(two, Op::kBcast, 8, true, composition("bcast_pipelined"), &unfit), "hier:bcast_pipelined");
  EXPECT_EQ(unfit, "");
  EXPECT_EQ(chosen(two, Op::kBcast, 1 << 22, true, composition("bcast"), &unfit), "hier:bcast");
  EXPECT_EQ(unfit, "");
  EXPECT_EQ(chosen(uneven, Op::kReduce, 8, false, composition("reduce_pipelined"), &unfit), "hier:reduce_pipelined");
  EXPECT_EQ(unfit, "");
  EXPECT_EQ(chosen(two, Op::kAllreduce, 8, true, composition("allreduce_columns"), &unfit), "hier:allreduce_columns");
  EXPECT_EQ(unfit, "");
  EXPECT_EQ(chosen(rr, Op::kAllreduce, 8, true, composition("allreduce_pipelined"), &unfit),
            "hier:allreduce_pipelined");
  EXPECT_EQ(unfit, "");
}

// Where the forced composition does not apply the rules decide, and the
// composition is reported unfit.
TEST(HierForcedSelection, CompositionWhereItDoesNotApply) {
  const Layout uneven = synthetic({3, 1, 2}), rr = synthetic({2, 2, 2, 2}, true);
  std::string unfit;
  // Columns need the same number of ranks on every node.
  EXPECT_EQ(chosen(uneven, Op::kAllreduce, 8, true, composition("allreduce_columns"), &unfit), "hier:allreduce");
  EXPECT_EQ(unfit, "composition allreduce_columns");
  // Scan needs consecutive node ranks: round-robin goes flat.
  EXPECT_EQ(chosen(rr, Op::kScan, 8, true, composition("scan"), &unfit), "flat");
  EXPECT_EQ(unfit, "composition scan");
  // Non-commutative reduce on round-robin placement.
  EXPECT_EQ(chosen(rr, Op::kReduce, 8, false, composition("reduce"), &unfit), "flat");
  EXPECT_EQ(unfit, "composition reduce");
  // Degenerate layouts.
  EXPECT_EQ(chosen(synthetic({4}), Op::kBcast, 8, true, composition("bcast"), &unfit), "flat");
  EXPECT_EQ(unfit, "composition bcast");
  EXPECT_EQ(chosen(synthetic({1, 1, 1}), Op::kBarrier, 0, true, composition("barrier"), &unfit), "flat");
  EXPECT_EQ(unfit, "composition barrier");
  // A composition of another operation never applies.
  EXPECT_EQ(chosen(synthetic({2, 2}), Op::kReduce, 8, true, composition("bcast"), &unfit), "hier:reduce");
  EXPECT_EQ(unfit, "composition bcast");
}

TEST(HierForcedSelection, InterAlgorithm) {
  const Layout two = synthetic({2, 2}), three = synthetic({2, 2, 2}), rr = synthetic({2, 2, 2, 2}, true);
  std::string unfit = "?";
  const HierChoice* c = choose_composition(two, layout_facts(two), call_args(two, Op::kBcast, 8), 4, 0,
                                           inter("twotree"), &unfit);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->name, "hier:bcast inter=twotree");
  EXPECT_EQ(c->inter, find_algorithm(Op::kBcast, "twotree"));
  EXPECT_EQ(unfit, "");
  EXPECT_EQ(chosen(three, Op::kReduce, 1 << 22, true, inter("binomial"), &unfit), "hier:reduce inter=binomial");
  EXPECT_EQ(unfit, "");
  // In the decided composition (HierForced::otherwise).
  EXPECT_EQ(chosen(three, Op::kReduce, 1 << 22, true, HierForced{"", "binomial", "reduce_pipelined"}, &unfit),
            "hier:reduce_pipelined inter=binomial");
  EXPECT_EQ(unfit, "");
  EXPECT_EQ(chosen(two, Op::kAllreduce, 8, true, inter("ring"), &unfit), "hier:allreduce inter=ring");
  EXPECT_EQ(unfit, "");
  EXPECT_EQ(chosen(two, Op::kAllreduce, 1 << 18, true, HierForced{"", "rabenseifner", "allreduce_columns"}, &unfit),
            "hier:allreduce_columns inter=rabenseifner");
  EXPECT_EQ(unfit, "");
  // Scan's leaders run exscan.
  c = choose_composition(three, layout_facts(three), call_args(three, Op::kScan, 8), 4, 0, inter("chain"), &unfit);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->name, "hier:scan inter=chain");
  EXPECT_EQ(c->inter, find_algorithm(Op::kExscan, "chain"));
  // Both knobs at once.
  EXPECT_EQ(chosen(rr, Op::kAllreduce, 8, true, HierForced{"allreduce_pipelined", "twotree"}, &unfit),
            "hier:allreduce_pipelined inter=twotree");
  EXPECT_EQ(unfit, "");
}

TEST(HierForcedSelection, InterAlgorithmThatDoesNotFit) {
  const Layout two = synthetic({2, 2}), rr = synthetic({2, 2, 2, 2}, true);
  std::string unfit;
  // The small allreduce's leaders run allreduce, which has no two-tree.
  EXPECT_EQ(chosen(two, Op::kAllreduce, 8, true, inter("twotree"), &unfit), "hier:allreduce");
  EXPECT_EQ(unfit, "inter-node algorithm twotree");
  // No composition (a scan on round-robin ranks), or one node: there is no
  // inter-node phase to run it.
  EXPECT_EQ(chosen(rr, Op::kScan, 1 << 14, true, inter("chain"), &unfit), "flat");
  EXPECT_EQ(unfit, "inter-node algorithm chain");
  EXPECT_EQ(chosen(synthetic({8}, false, 2), Op::kBcast, 8, true, inter("twotree"), &unfit), "hier:bcast");
  EXPECT_EQ(unfit, "inter-node algorithm twotree");
  // Both unfit.
  EXPECT_EQ(chosen(rr, Op::kScan, 8, true, HierForced{"scan", "chain"}, &unfit), "flat");
  EXPECT_EQ(unfit, "composition scan, inter-node algorithm chain");
}

// The phases really get the forced algorithm, by name: both inter-node
// phases of allreduce_pipelined (reduce, bcast), none of the intra ones.
TEST(HierForcedSelection, PhasesRunTheForcedAlgorithmByName) {
  const Layout L = synthetic({2, 2, 2, 2, 2});
  const CollArgs a = call_args(L, Op::kAllreduce, 1000);
  const HierChoice* c =
      choose_composition(L, layout_facts(L), a, 4, 0, HierForced{"allreduce_pipelined", "binomial"}, nullptr);
  ASSERT_NE(c, nullptr);
  const HierCall call{L, a, *c};
  for (Op op : {Op::kReduce, Op::kBcast}) {
    CollArgs sub = call.phase_args(op, HierGroup{{0, 2, 4, 6, 8}, 0, 0}, a.count);
    EXPECT_EQ(&call.phase_algorithm(true, &sub), find_algorithm(op, "binomial")) << op_name(op);
    sub = call.phase_args(op, HierGroup{{0, 1}, 0, 0}, a.count);
    EXPECT_EQ(std::string(call.phase_algorithm(false, &sub).name), "pipelined_binary_tree") << op_name(op);
  }
}

// Without a model of the machine (HierChoice::phases null) an open phase
// takes the flat default for its group under the level's figures, as the
// flat path would; a segmented composition's phases are its pipelines
// whatever chooses.
TEST(HierSelection, WithoutAModelOpenPhasesTakeTheFlatDefault) {
  for (int nodes : {2, 4, 5}) {
    const Layout L = synthetic(std::vector<int>(nodes, 2));
    HierGroup leaders{{}, 0, 0};
    for (int n = 0; n < nodes; ++n) leaders.ranks.push_back(2 * n);
    for (int64_t count : {int64_t{1}, int64_t{1} << 12, int64_t{1} << 16}) {
      for (Op op : {Op::kBcast, Op::kAllreduce, Op::kReduce}) {
        const CollArgs a = call_args(L, op, count);
        const HierChoice* c = choose_composition(L, layout_facts(L), a, 4, 0, HierForced{op_name(op), ""}, nullptr);
        ASSERT_NE(c, nullptr) << op_name(op);
        const HierCall call{L, a, *c};
        CollArgs sub = call.phase_args(op, leaders, count);
        const Algorithm* flat = default_algorithm(sub, count * 4, &builtin_machine());
        EXPECT_EQ(&call.phase_algorithm(true, &sub), flat) << op_name(op) << " " << nodes << " nodes, " << count;
      }
    }
  }
  const Layout L = synthetic({2, 2, 2, 2});
  const CollArgs a = call_args(L, Op::kBcast, 1 << 20);
  const HierChoice* c = choose_composition(L, layout_facts(L), a, 4, 0, HierForced{"bcast_pipelined", ""}, nullptr);
  ASSERT_NE(c, nullptr);
  const HierCall call{L, a, *c};
  CollArgs sub = call.phase_args(Op::kBcast, HierGroup{{0, 2, 4, 6}, 0, 0}, a.count);
  EXPECT_EQ(std::string(call.phase_algorithm(true, &sub).name), "twotree");
}

// The knobs are part of the interned choice: same knobs, same address;
// other knobs, another choice (and another cached schedule).
TEST(HierForcedSelection, ForcedChoicesAreInterned) {
  const Layout two = synthetic({2, 2});
  const LayoutFacts F = layout_facts(two);
  const CollArgs a = call_args(two, Op::kBcast, 100);
  const HierChoice* plain = choose_composition(two, F, a, 4, 0);
  const HierChoice* tt = choose_composition(two, F, a, 4, 0, inter("twotree"));
  EXPECT_EQ(tt, choose_composition(two, F, a, 4, 0, inter("twotree")));
  EXPECT_NE(tt, plain);
  EXPECT_NE(tt, choose_composition(two, F, a, 4, 0, inter("chain")));
  const HierChoice* piped = choose_composition(two, F, a, 4, 0, composition("bcast_pipelined"));
  EXPECT_NE(piped, plain);
  EXPECT_NE(piped, choose_composition(two, F, a, 4, 0, HierForced{"bcast_pipelined", "twotree"}));
  // Forcing what the rules pick anyway is that very choice.
  EXPECT_EQ(plain, choose_composition(two, F, a, 4, 0, composition("bcast")));
}

TEST(HierForcedSelection, InterAlgorithmNames) {
  const auto has = [](Op op, const char* name) {
    const std::vector<std::string> v = inter_algorithm_names(op);
    return std::find(v.begin(), v.end(), name) != v.end();
  };
  EXPECT_TRUE(has(Op::kBcast, "twotree"));
  EXPECT_FALSE(has(Op::kBcast, "recursive_doubling"));
  EXPECT_TRUE(has(Op::kAllreduce, "ring"));                   // allreduce, allreduce_columns
  EXPECT_TRUE(has(Op::kAllreduce, "pipelined_binary_tree"));  // allreduce_pipelined's reduce and bcast
  EXPECT_TRUE(has(Op::kScan, "chain"));                       // exscan's
  EXPECT_TRUE(inter_algorithm_names(Op::kBarrier).empty());
  EXPECT_TRUE(has(Op::kReduceScatter, "pairwise"));  // the reduce-scatter of the columns
  EXPECT_TRUE(has(Op::kAllgather, "ring"));       // the allgatherv among the leaders
  EXPECT_TRUE(has(Op::kAlltoall, "pairwise"));    // the alltoallv among the leaders
  const std::vector<std::string> all = inter_algorithm_names(Op::kAllreduce);
  EXPECT_EQ(std::count(all.begin(), all.end(), "binomial"), 1);  // each name once
}

// ---- the hierarchy itself ----------------------------------------------------

TEST(Hierarchy, RootLeadsItsNodeAndSocket) {
  const Layout L = synthetic({4, 4}, false, 2);  // node 0: sockets {0,1} {2,3}; node 1: {4,5} {6,7}
  // Root 3 (node 0, socket 1, not a master): it leads node 0 and socket 1.
  const Hierarchy h3 = make_hierarchy(L, 3, 3, true);
  ASSERT_EQ(h3.levels.size(), 3u);
  EXPECT_EQ(h3.levels[0].ranks, (std::vector<int>{3, 4}));
  EXPECT_EQ(h3.levels[0].root, 0);
  EXPECT_EQ(h3.levels[0].me, 0);
  EXPECT_EQ(h3.levels[1].ranks, (std::vector<int>{0, 3}));
  EXPECT_EQ(h3.levels[1].root, 1);
  EXPECT_EQ(h3.levels[2].ranks, (std::vector<int>{2, 3}));
  EXPECT_EQ(h3.levels[2].root, 1);
  // Rank 6 on the other node: led by master 4, socket {6,7} led by 6.
  const Hierarchy h6 = make_hierarchy(L, 6, 3, true);
  EXPECT_EQ(h6.levels[0].me, -1);
  EXPECT_EQ(h6.levels[1].ranks, (std::vector<int>{4, 6}));
  EXPECT_EQ(h6.levels[1].me, 1);
  EXPECT_EQ(h6.levels[2].ranks, (std::vector<int>{6, 7}));
  EXPECT_EQ(h6.levels[2].root, 0);
  // Two levels, highest leaders (scan).
  const Hierarchy hs = make_hierarchy(L, 5, 3, false, LeaderRule::kHighest);
  EXPECT_EQ(hs.levels[0].ranks, (std::vector<int>{3, 7}));
  EXPECT_EQ(hs.levels[1].root, 3);
  EXPECT_EQ(hs.levels[1].me, 1);
}

TEST(Hierarchy, Levels) {
  EXPECT_EQ(active_levels(synthetic({2, 2}), false), 2);
  EXPECT_EQ(active_levels(synthetic({1, 1}), false), 1);
  EXPECT_EQ(active_levels(synthetic({4}), false), 1);
  EXPECT_EQ(active_levels(synthetic({4, 4}, false, 2), true), 3);
  EXPECT_EQ(active_levels(synthetic({2, 2}, false, 2), true), 2);  // sockets of one rank
  EXPECT_TRUE(sockets_consecutive(synthetic({4, 4}, false, 2)));
  EXPECT_FALSE(sockets_consecutive(synthetic({4, 4}, false, 2, true)));
}

// What the flat rules learn of a layout (select/flat_rules.h LinkSharing).
TEST(Hierarchy, LinkSharingForTheFlatRules) {
  auto links = [](const Layout& L) { return layout_facts(L).links; };
  EXPECT_EQ(links(synthetic({2, 2, 2, 2})).ranks_per_node, 2);
  EXPECT_TRUE(links(synthetic({2, 2, 2, 2})).consecutive);
  EXPECT_EQ(links(synthetic({3, 1, 2})).ranks_per_node, 3);  // the fullest node
  EXPECT_EQ(links(synthetic({2, 2, 2, 2}, true)).ranks_per_node, 2);
  EXPECT_FALSE(links(synthetic({2, 2, 2, 2}, true)).consecutive);
  EXPECT_EQ(links(synthetic({1, 1, 1})).ranks_per_node, 1);
  // One node: no link is shared, whatever the order.
  EXPECT_EQ(links(synthetic({8})).ranks_per_node, 1);
  EXPECT_TRUE(links(synthetic({8})).consecutive);
}

}  // namespace
}  // namespace hiercoll::testing

