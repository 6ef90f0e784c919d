#include "hier/hier_registry.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "hier/hier_rules.h"
#include "schedule/registry_table.h"
#include "select/flat_rules.h"

namespace hiercoll {

namespace {

// Every composition.  Same generator, different phase rules: "x" runs each
// level as a whole (paper Sect. 3, the non-pipelined form; phase rules
// in hier_rules.cc, else the flat default for the level's group and bytes);
// "x_pipelined" cuts the message into segments that flow through all
// levels at once (paper Sects. 3.1-3.2).
// The barrier's inter-node phase is the dissemination barrier built in
// place (hier_barrier.cc), not a flat algorithm, so it has no inter_ops.
const HierComposition kCompositions[] = {
    {Op::kBcast, "bcast", 0, false, op_bit(Op::kBcast), build_hier_bcast},
    {Op::kBcast, "bcast_pipelined", 0, true, op_bit(Op::kBcast), build_hier_bcast},
    {Op::kReduce, "reduce", kNeedOrderForNonCommutative, false, op_bit(Op::kReduce), build_hier_reduce},
    {Op::kReduce, "reduce_pipelined", kNeedOrderForNonCommutative, true, op_bit(Op::kReduce), build_hier_reduce},
    {Op::kAllreduce, "allreduce", kNeedOrderForNonCommutative, false, op_bit(Op::kAllreduce), build_hier_allreduce},
    {Op::kAllreduce, "allreduce_pipelined", kNeedOrderForNonCommutative, true, op_bit(Op::kReduce) | op_bit(Op::kBcast),
     build_hier_allreduce_pipelined},
    {Op::kAllreduce, "allreduce_columns", kNeedOrderForNonCommutative | kNeedUniform | kTwoLevelsOnly, false,
     op_bit(Op::kAllreduce), build_hier_allreduce_columns},
    {Op::kBarrier, "barrier", 0, false, 0, build_hier_barrier},
    {Op::kScan, "scan", kNeedConsecutive | kTwoLevelsOnly, false, op_bit(Op::kExscan), build_hier_scan},
    {Op::kExscan, "exscan", kNeedConsecutive | kTwoLevelsOnly, false, op_bit(Op::kExscan), build_hier_exscan},
    {Op::kAllgatherv, "allgatherv", kTwoLevelsOnly, false, op_bit(Op::kAllgatherv), build_hier_allgatherv},
    {Op::kGatherv, "gatherv", kTwoLevelsOnly | kNeedAllCounts, false, op_bit(Op::kGatherv), build_hier_gatherv},
    {Op::kScatterv, "scatterv", kTwoLevelsOnly | kNeedAllCounts, false, op_bit(Op::kScatterv), build_hier_scatterv},
    // Allgather: the allgatherv composition on one-unit blocks.
    {Op::kAllgather, "allgather", kTwoLevelsOnly, false, op_bit(Op::kAllgatherv), build_hier_allgatherv},
    // Several leaders per node, each carrying a share of the node's blocks
    // among nodes (a node's first k ranks, k the fewest ranks of a node).
    {Op::kAllgather, "allgather_leaders", kTwoLevelsOnly, false, op_bit(Op::kAllgatherv),
     build_hier_allgather_leaders},
    {Op::kAllgatherv, "allgatherv_leaders", kTwoLevelsOnly, false, op_bit(Op::kAllgatherv),
     build_hier_allgather_leaders},
    {Op::kAlltoall, "alltoall", kTwoLevelsOnly, false, op_bit(Op::kAlltoallv), build_hier_alltoall},
    // Every rank a leader of some node pairs; its inter-node messages are
    // one bundle each way per node pair, not a flat algorithm's.
    {Op::kAlltoall, "alltoall_leaders", kTwoLevelsOnly, false, 0, build_hier_alltoall_leaders},
    {Op::kAlltoallv, "alltoallv_leaders", kTwoLevelsOnly | kNeedAllCounts | kNeedNodeRows | kNodeRowsEverywhere,
     false, 0, build_hier_alltoall_leaders},
    // Alltoallv: the same aggregation, its leaders sized by the count
    // exchange inside each node.
    {Op::kAlltoallv, "alltoallv", kTwoLevelsOnly | kNeedAllCounts | kNeedNodeRows, false, op_bit(Op::kAlltoallv),
     build_hier_alltoallv},
    // Gather and scatter: the gatherv and scatterv compositions on one-unit
    // blocks (no count exchange: every rank knows every block); pipelined,
    // the leaders pass the node bundles on in segments.
    {Op::kGather, "gather", kTwoLevelsOnly, false, op_bit(Op::kGatherv), build_hier_gatherv},
    {Op::kGather, "gather_pipelined", kTwoLevelsOnly, true, op_bit(Op::kGatherv), build_hier_gatherv},
    {Op::kScatter, "scatter", kTwoLevelsOnly, false, op_bit(Op::kScatterv), build_hier_scatterv},
    {Op::kScatter, "scatter_pipelined", kTwoLevelsOnly, true, op_bit(Op::kScatterv), build_hier_scatterv},
    // Reduce-scatter through one leader per node, any layout.
    {Op::kReduceScatter, "reduce_scatter", kNeedOrderForNonCommutative | kTwoLevelsOnly, false,
     op_bit(Op::kReduceScatter), build_hier_reduce_scatter},
    {Op::kReduceScatter, "reduce_scatter_columns", kNeedOrderForNonCommutative | kNeedUniform | kTwoLevelsOnly, false,
     op_bit(Op::kReduceScatter), build_hier_reduce_scatter_columns},
};

// Segments of the segmented compositions: the message in this many pieces,
// but no smaller than the flat default for the message (select/flat_rules.h).
constexpr int64_t kSegmentsPerMessage = 4;

// The algorithm whose default segment size the segmented compositions use.
constexpr const char* kSegmentReference = "pipelined_binary_tree";

bool applies_needs(uint32_t needs, const Layout& L, const CollArgs& a) {
  if ((needs & kNeedConsecutive) && !L.consecutive) return false;
  if ((needs & kNeedOrderForNonCommutative) && !a.commutative && !L.consecutive) return false;
  if ((needs & kNeedUniform) && !L.uniform) return false;
  return true;
}

int64_t units_of(int64_t bytes, int64_t unit_bytes) {
  return unit_bytes > 0 ? std::max<int64_t>(1, bytes / unit_bytes) : 0;
}

// The interned copy of ch: its address keys the per-communicator schedule
// cache, so the key holds every field a composed schedule depends on (the
// name follows from comp and inter).
using InternKey = std::tuple<const HierComposition*, bool, int64_t, int64_t, const Algorithm*, const Algorithm*,
                             const MachineFigures*, const PhaseChooser*>;
std::mutex g_intern_mu;
std::map<InternKey, std::unique_ptr<HierChoice>> g_interned;

const HierChoice* intern(HierChoice ch) {
  std::lock_guard<std::mutex> lock(g_intern_mu);
  auto& slot = g_interned[InternKey(ch.comp, ch.sockets, ch.unit_bytes, ch.seg_units, ch.inter, ch.intra, ch.machine, ch.phases)];
  if (!slot) {
    ch.name = choice_name(ch);
    slot = std::make_unique<HierChoice>(std::move(ch));
  }
  return slot.get();
}

}  // namespace

// The node leaders' phase of operation `op` for the call, as far as an
// algorithm's restrictions go: group size, commutativity.  Root 0: no
// algorithm of an inter-node phase's operations restricts the root (and
// phase_algorithm checks the real phase all the same).
CollArgs leaders_args(Op op, const Layout& L, const CollArgs& a) {
  CollArgs s;
  s.op = op;
  s.size = L.num_nodes;
  s.count = a.count;
  s.commutative = a.commutative;
  return s;
}

const RegistryTable<HierComposition>& composition_table() {
  static const RegistryTable<HierComposition> table(kCompositions);
  return table;
}

const std::vector<HierComposition>& all_compositions() { return composition_table().all(); }

const HierComposition* find_composition(Op op, std::string_view name) { return composition_table().find(op, name); }

std::vector<const HierComposition*> compositions_for(Op op) { return composition_table().of(op); }

bool uses_sockets(const HierComposition& comp, const LayoutFacts& F, const CollArgs& a) {
  if ((comp.needs & kTwoLevelsOnly) || !F.socket_level) return false;
  return a.commutative || F.sockets_consecutive;
}

bool composition_applies(const HierComposition& comp, const Layout& L, const LayoutFacts& F, const CollArgs& a) {
  if (comp.op != a.op || L.size != a.size || !applies_needs(comp.needs, L, a)) return false;
  return (uses_sockets(comp, F, a) ? F.socket_levels : F.levels) >= 2;
}

std::vector<std::string> inter_algorithm_names(Op op) {
  uint32_t ops = 0;
  for (const HierComposition* c : compositions_for(op)) ops |= c->inter_ops;
  std::vector<std::string> names;
  for (const Algorithm& alg : all_algorithms())
    if ((ops & op_bit(alg.op)) && std::find(names.begin(), names.end(), alg.name) == names.end())
      names.push_back(alg.name);
  return names;
}

const Algorithm* inter_algorithm_for(const HierComposition& comp, const Layout& L, const CollArgs& a,
                                     const std::string& name) {
  if (L.num_nodes < 2) return nullptr;  // no inter-node phase
  const Algorithm* first = nullptr;
  for (int i = 0; i < kNumOps; ++i) {
    const Op op = static_cast<Op>(i);
    if (!(comp.inter_ops & op_bit(op))) continue;
    const Algorithm* alg = find_algorithm(op, name);
    if (!alg) continue;
    if (!algorithm_fits(*alg, leaders_args(op, L, a))) return nullptr;
    if (!first) first = alg;
  }
  return first;
}

// The message a segmented composition cuts into segments: the call's, or
// for gather and scatter the largest node's bundle, which is what passes
// between the leaders.
static int64_t segmented_message_bytes(const Layout& L, const CollArgs& a, int64_t unit_bytes) {
  if (a.op != Op::kGather && a.op != Op::kScatter) return selection_bytes(a.op, unit_bytes, a);
  int largest = 0;
  for (int n = 0; n < L.num_nodes; ++n) largest = std::max(largest, L.node_size(n));
  return unit_bytes * largest;
}

int64_t composition_default_segment_bytes(const HierComposition& comp, const Layout& L, const CollArgs& a,
                                          int64_t unit_bytes, const MachineFigures* machine) {
  if (!comp.segmented) return 0;
  const int64_t bytes = segmented_message_bytes(L, a, unit_bytes);
  const Algorithm* tree = find_algorithm(Op::kBcast, kSegmentReference);
  return std::max(default_segment_bytes(*tree, bytes, L.num_nodes, machine), bytes / kSegmentsPerMessage);
}

// The segment, in units, of every phase of a segmented composition without
// a forced one.
static int64_t composition_segment(const HierChoice& ch, const Layout& L, const CollArgs& a) {
  return units_of(composition_default_segment_bytes(*ch.comp, L, a, ch.unit_bytes, ch.machine), ch.unit_bytes);
}

HierChoice make_choice(const HierComposition& comp, const Layout& /*L*/, const LayoutFacts& F, const CollArgs& a,
                       int64_t unit_bytes, int64_t segment_bytes, const Algorithm* inter,
                       const MachineFigures* machine, const PhaseChooser* phases) {
  HierChoice ch;
  ch.machine = machine;
  ch.phases = phases;
  ch.comp = &comp;
  ch.sockets = uses_sockets(comp, F, a);
  ch.unit_bytes = unit_bytes;
  // A segmented composition's default segment depends on the message, so it
  // is computed when the schedule is built (composition_segment), not kept
  // here: interned choices stay one per forced segment, not one per size.
  if (segment_bytes > 0) ch.seg_units = units_of(segment_bytes, unit_bytes);
  ch.inter = inter;
  return ch;
}

size_t interned_choice_count() {
  std::lock_guard<std::mutex> lock(g_intern_mu);
  return g_interned.size();
}

std::string choice_name(const HierChoice& ch) {
  return std::string("hier:") + ch.comp->name + (ch.inter ? std::string(" inter=") + ch.inter->name : "");
}

const HierChoice* choose_composition(const Layout& L, const LayoutFacts& F, const CollArgs& a, int64_t unit_bytes,
                                     int64_t segment_bytes, const HierForced& forced, std::string* unfit,
                                     const MachineFigures* machine, const PhaseChooser* phases) {
  std::string missed;
  const HierComposition* comp = nullptr;
  if (!forced.composition.empty()) {
    const HierComposition* f = find_composition(a.op, forced.composition);
    if (f && composition_applies(*f, L, F, a)) comp = f;
    else missed = "composition " + forced.composition;
  }
  if (!comp && !forced.otherwise.empty()) {
    const HierComposition* o = find_composition(a.op, forced.otherwise);
    if (o && composition_applies(*o, L, F, a)) comp = o;
  }
  if (!comp) comp = selected_composition(L, F, a);
  const Algorithm* inter = nullptr;
  if (!forced.inter.empty()) {
    if (comp) inter = inter_algorithm_for(*comp, L, a, forced.inter);
    if (!inter) missed += (missed.empty() ? "" : ", ") + std::string("inter-node algorithm ") + forced.inter;
  }
  if (unfit) *unfit = missed;
  if (!comp) return nullptr;
  return intern(make_choice(*comp, L, F, a, unit_bytes, segment_bytes, inter, machine, phases));
}

std::string check_hier_tables() {
  const std::string rules = check_rule_tables();
  if (!rules.empty()) return rules;
  if (!find_algorithm(Op::kBcast, kSegmentReference)) return std::string("no flat algorithm ") + kSegmentReference;
  return "";
}

Schedule build_composed(const HierChoice& ch, const Layout& L, const CollArgs& a) {
  ScheduleBuilder b(a.send_alias);
  ch.comp->build(HierCall{L, a, ch}, b);
  return b.finish();
}

CollArgs HierCall::phase_args(Op op, const HierGroup& g, int64_t count) const {
  CollArgs s;
  s.op = op;
  s.rank = g.me;
  s.size = g.size();
  s.root = g.root;
  s.count = count;
  s.commutative = args.commutative;
  return s;
}

const Algorithm& HierCall::phase_algorithm(bool inter, CollArgs* sub) const {
  // A v-variant or reduce-scatter phase by all its blocks (its members' own
  // blocks differ, and they must all choose alike).
  const bool by_all_blocks = is_v_op(sub->op) || sub->op == Op::kReduceScatter;
  const int64_t bytes =
      by_all_blocks ? selection_bytes(sub->op, choice.unit_bytes, *sub) : sub->count * choice.unit_bytes;
  const Algorithm* forced = inter ? choice.inter : choice.intra;
  // Forced by name: a phase of another operation runs its namesake.
  if (forced && forced->op != sub->op) forced = find_algorithm(sub->op, forced->name);
  const Algorithm* a = nullptr;
  if (forced && algorithm_fits(*forced, *sub)) a = forced;
  if (!a) a = phase_rule_algorithm(choice.comp->segmented, inter, *sub, bytes);
  // The model where the composition's kind leaves the phase open: a
  // segmented composition's phases are its pipelines (the rules above).
  // By all blocks only where every member knows their bytes alike: a
  // reduce-scatter's, whose members reduce one datatype.  (An allgatherv's
  // members may describe their blocks with different datatypes, one of
  // them of size zero, and so see other bytes: they keep the rules.)
  const bool costable = !by_all_blocks || sub->op == Op::kReduceScatter;
  if (!a && choice.phases && !choice.comp->segmented && costable)
    a = choice.phases->cheapest(inter, inter ? 1 : layout.num_nodes, *sub, choice.unit_bytes, choice.machine);
  if (!a) {
    // The rules judge a phase by its own level's figures (a ring's latency
    // inside a node is the node's).  A phase's group has one rank per node
    // (leaders, a column) or lies inside one node: within the group no two
    // ranks share a link (LinkSharing's default).
    const MachineFigures& m = choice.machine ? *choice.machine : builtin_machine();
    const MachineFigures level = inter ? m : inside_node(m);
    a = default_algorithm(*sub, bytes, &level);
  }
  // Segments within the bounds of select/flat_rules.h: a forced or
  // composition segment against the call, a phase's own default against
  // the phase.
  if (choice.seg_units > 0)
    sub->seg_units = bounded_seg_units(args, choice.unit_bytes, choice.seg_units);
  else if (choice.comp->segmented)
    sub->seg_units = bounded_seg_units(args, choice.unit_bytes, composition_segment(choice, layout, args));
  else
    sub->seg_units = bounded_seg_units(*sub, choice.unit_bytes,
                                       units_of(default_segment_bytes(*a, bytes, sub->size, choice.machine),
                                                choice.unit_bytes));
  return *a;
}

}  // namespace hiercoll
