#include "hier/hier_rules.h"

#include <limits>

#include "hier/hier_registry.h"
#include "select/flat_rules.h"
#include "select/rules_by_op.h"

namespace hiercoll {

namespace {

constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
constexpr int kAnyGroup = std::numeric_limits<int>::max();

// Which composition a call gets where neither the model, a tuning file nor
// a knob decides (decide/decide.h rules_candidate): the first rule of its
// operation whose size and group limits hold and whose composition applies.
// Operations without a rule stay flat here.  The cutoffs follow what the
// emulated cluster measured (docs/results/bench-4x2.md): the fewest
// messages win until the link's bandwidth counts, so the pipelined forms
// take over from a few tens of KiB on small groups and from several MiB
// on larger ones; allreduce runs in columns where nodes are equal and the
// vector is long (each rank's link carries 1/k of its node's bytes); scan
// stays flat from 64 KiB on up to 16 ranks, where the flat linear pipeline
// crosses each node boundary once and does half the composition's work;
// gatherv and scatterv pay for their count exchange only from 64 ranks.
struct SelectRule {
  Op op;
  int64_t below_bytes;
  const char* composition;
  int min_ranks = 0;                                // the rule applies to groups of at least
  int max_ranks = std::numeric_limits<int>::max();  // ... and at most this many ranks
};
const SelectRule kSelectRules[] = {
    {Op::kBcast, 64 << 10, "bcast"},
    {Op::kBcast, kAny, "bcast_pipelined", 0, 8},
    {Op::kBcast, 8 << 20, "bcast"},
    {Op::kBcast, kAny, "bcast_pipelined"},
    {Op::kReduce, 64 << 10, "reduce"},
    {Op::kReduce, kAny, "reduce_pipelined", 0, 8},
    {Op::kReduce, 8 << 20, "reduce"},
    {Op::kReduce, kAny, "reduce_pipelined"},
    {Op::kAllreduce, 128 << 10, "allreduce"},
    {Op::kAllreduce, kAny, "allreduce_columns"},
    {Op::kAllreduce, 1 << 20, "allreduce"},
    {Op::kAllreduce, kAny, "allreduce_pipelined"},
    {Op::kBarrier, kAny, "barrier"},
    {Op::kScan, 64 << 10, "scan"},
    {Op::kScan, kAny, "scan", 17},
    {Op::kExscan, 64 << 10, "exscan"},
    {Op::kExscan, kAny, "exscan", 17},
    {Op::kAllgatherv, kAny, "allgatherv"},
    {Op::kGatherv, kAny, "gatherv", 64},
    {Op::kScatterv, kAny, "scatterv", 64},
};

// The flat algorithm of a segmented composition's phase: the first rule
// for the phase's operation, level and group size that fits the phase.
// (The phases of the other compositions are the model's: decide/phase_choice.h.)
enum class Level : uint8_t { kInter, kIntra };
struct PhaseRule {
  Op op;
  Level level;
  int min_group, max_group;
  int64_t below_bytes;  // the phase's vector
  bool commutative_only;
  const char* algorithm;
};
const PhaseRule kPhaseRules[] = {
    // Among nodes: the two-tree from four leaders on (two-tree
    // paper Sect. 2: twice the pipelined tree's bandwidth), else the
    // pipelined binary tree (Zhu et al. Sect. 3.1).  The two-tree reduce
    // keeps rank order only with the root at an end, so non-commutative
    // reductions take the tree.
    {Op::kBcast, Level::kInter, 4, kAnyGroup, kAny, false, "twotree"},
    {Op::kBcast, Level::kInter, 1, kAnyGroup, kAny, false, "pipelined_binary_tree"},
    {Op::kReduce, Level::kInter, 4, kAnyGroup, kAny, true, "twotree"},
    {Op::kReduce, Level::kInter, 1, kAnyGroup, kAny, false, "pipelined_binary_tree"},
    // Inside the node: the pipelined tree, segment by segment,
    // so the levels overlap.
    {Op::kBcast, Level::kIntra, 1, kAnyGroup, kAny, false, "pipelined_binary_tree"},
    {Op::kReduce, Level::kIntra, 1, kAnyGroup, kAny, false, "pipelined_binary_tree"},
};

}  // namespace

const HierComposition* selected_composition(const Layout& L, const LayoutFacts& F, const CollArgs& a,
                                            int64_t unit_bytes) {
  static const auto rules_of = rules_by_op<HierComposition>(
      kSelectRules, [](const SelectRule& r) { return find_composition(r.op, r.composition); });
  const auto& rules = rules_of[static_cast<int>(a.op)];
  if (rules.empty()) return nullptr;
  const int64_t bytes = selection_bytes(a.op, unit_bytes, a);
  for (const auto& o : rules) {
    if (bytes >= o.rule->below_bytes || a.size < o.rule->min_ranks || a.size > o.rule->max_ranks) continue;
    if (o.target && composition_applies(*o.target, L, F, a)) return o.target;
  }
  return nullptr;
}

const Algorithm* phase_rule_algorithm(bool segmented, bool inter, const CollArgs& sub, int64_t bytes) {
  if (!segmented) return nullptr;
  for (const PhaseRule& r : kPhaseRules) {
    if (r.op != sub.op || (r.level == Level::kInter) != inter) continue;
    if (sub.size < r.min_group || sub.size > r.max_group || bytes >= r.below_bytes) continue;
    if (r.commutative_only && !sub.commutative) continue;
    const Algorithm* f = find_algorithm(r.op, r.algorithm);
    if (f && algorithm_fits(*f, sub)) return f;
  }
  return nullptr;
}

std::string check_rule_tables() {
  for (const SelectRule& r : kSelectRules)
    if (!find_composition(r.op, r.composition)) return std::string("no composition ") + r.composition;
  for (const PhaseRule& r : kPhaseRules)
    if (!find_algorithm(r.op, r.algorithm)) return std::string("no flat algorithm ") + op_name(r.op) + "/" + r.algorithm;
  return "";
}

}  // namespace hiercoll
