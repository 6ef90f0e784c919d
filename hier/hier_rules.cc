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
// a knob decides (decide/decide.h rules_candidate).  The v-variants the
// model does not decide (no rank knows every block, so all choose by the
// group alone) have rules: allgatherv always runs in two levels; gatherv
// and scatterv, whose composition first brings every count to the root,
// from 64 ranks, where the root's links carry more than the exchange
// costs; alltoallv stays flat.  Every other operation reaches the rules
// only where the model could cost nothing, or where a knob forces a
// leaders' algorithm on a call the model runs flat: it takes its first
// composition in registry order that applies, the plain two-level form.
// No rule here measures one machine: sizes are the model's.
struct SelectRule {
  Op op;
  const char* composition;  // null: flat
  int min_ranks = 0;        // the rule applies to groups of at least this many ranks
};
const SelectRule kSelectRules[] = {
    {Op::kAllgatherv, "allgatherv"},
    {Op::kGatherv, "gatherv", 64},
    {Op::kScatterv, "scatterv", 64},
    {Op::kAlltoallv, nullptr},
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

const HierComposition* selected_composition(const Layout& L, const LayoutFacts& F, const CollArgs& a) {
  static const auto rules_of = rules_by_op<HierComposition>(kSelectRules, [](const SelectRule& r) {
    return r.composition ? find_composition(r.op, r.composition) : nullptr;
  });
  const auto& rules = rules_of[static_cast<int>(a.op)];
  if (rules.empty()) {
    for (const HierComposition* c : compositions_for(a.op))
      if (composition_applies(*c, L, F, a)) return c;
    return nullptr;
  }
  for (const auto& o : rules) {
    if (a.size < o.rule->min_ranks) continue;
    return o.target && composition_applies(*o.target, L, F, a) ? o.target : nullptr;
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
    if (r.composition && !find_composition(r.op, r.composition)) return std::string("no composition ") + r.composition;
  for (const PhaseRule& r : kPhaseRules)
    if (!find_algorithm(r.op, r.algorithm)) return std::string("no flat algorithm ") + op_name(r.op) + "/" + r.algorithm;
  return "";
}

}  // namespace hiercoll
