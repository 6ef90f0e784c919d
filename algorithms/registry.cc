#include "algorithms/registry.h"

namespace hiercoll {

const std::vector<Algorithm>& all_algorithms() { return algorithm_table().all(); }

const Algorithm* find_algorithm(Op op, std::string_view name) { return algorithm_table().find(op, name); }

std::vector<const Algorithm*> algorithms_for(Op op) { return algorithm_table().of(op); }

static bool is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

bool algorithm_fits(const Algorithm& a, const CollArgs& args) {
  const uint32_t r = a.restrictions;
  if ((r & kPow2Only) && !is_pow2(args.size)) return false;
  if ((r & kCommutativeOnly) && !args.commutative) return false;
  if ((r & kRootZeroOnly) && args.root != 0) return false;
  if (r & kEqualCounts) {
    for (int64_t c : args.counts)
      if (c != args.counts.front()) return false;
  }
  return true;
}

std::string restriction_names(uint32_t r) {
  static const struct { uint32_t bit; const char* name; } kNames[] = {
      {kPow2Only, "pow2-only"},
      {kCommutativeOnly, "commutative-only"},
      {kRootZeroOnly, "root-0-only"},
      {kConsecutiveRanks, "consecutive-ranks"},
      {kEqualCounts, "equal-counts"},
      {kAllCounts, "all-counts"},
  };
  std::string s;
  for (const auto& n : kNames) {
    if (!(r & n.bit)) continue;
    if (!s.empty()) s += ' ';
    s += n.name;
  }
  return s;
}

Schedule build_schedule(const Algorithm& a, const CollArgs& args) {
  ScheduleBuilder b(args.send_alias);
  a.build(args, b);
  return b.finish();
}

}  // namespace hiercoll
