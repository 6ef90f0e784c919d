// A selection table's rules grouped by operation, in table order, each with
// what its name resolves to (an algorithm, a composition), looked up once:
// selection runs on every call, so it scans only its operation's rules and
// never looks a name up.
#pragma once

#include <cstddef>
#include <vector>

#include "schedule/coll_args.h"

namespace hiercoll {

template <typename Rule, typename Target>
struct ResolvedRule {
  const Rule* rule;
  const Target* target;  // null where the name resolves to nothing
};

template <typename Rule, typename Target>
using RulesByOp = std::vector<std::vector<ResolvedRule<Rule, Target>>>;

// `resolve(rule)` gives the rule's target.
template <typename Target, typename Rule, size_t N, typename Resolve>
RulesByOp<Rule, Target> rules_by_op(const Rule (&table)[N], Resolve resolve) {
  RulesByOp<Rule, Target> v(kNumOps);
  for (const Rule& r : table) v[static_cast<int>(r.op)].push_back({&r, resolve(r)});
  return v;
}

}  // namespace hiercoll
