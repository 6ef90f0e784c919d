#include "select/size_ranges.h"

#include <algorithm>
#include <stdexcept>

#include "select/log_interpolation.h"

namespace hiercoll {
namespace {

int64_t boundary(const SizeDecision& a, const TimeTable& at_a, const SizeDecision& b,
                 const TimeTable& at_b) {
  const MethodTime* a0 = find_method(at_a, a.method);
  const MethodTime* b0 = find_method(at_a, b.method);
  const MethodTime* a1 = find_method(at_b, a.method);
  const MethodTime* b1 = find_method(at_b, b.method);
  if (a.method == b.method || !a0 || !b0 || !a1 || !b1) return middle_bytes(a.bytes, b.bytes);
  return crossing_bytes(a.bytes, a0->us, b0->us, b.bytes, a1->us, b1->us);
}

}  // namespace

std::vector<SizeRange> make_ranges(const std::vector<SizeDecision>& decisions,
                                   const std::vector<TimeTable>& tables) {
  std::vector<SizeRange> ranges;
  SizeRange open{0, 0, decisions.front().method, decisions.front().segment};
  for (size_t i = 0; i + 1 < decisions.size(); ++i) {
    const SizeDecision& a = decisions[i];
    const SizeDecision& b = decisions[i + 1];
    if (a.method == b.method && a.segment == b.segment) continue;
    open.hi_bytes = boundary(a, tables[i], b, tables[i + 1]);
    ranges.push_back(open);
    open = SizeRange{open.hi_bytes, 0, b.method, b.segment};
  }
  open.hi_bytes = std::numeric_limits<int64_t>::max();
  ranges.push_back(open);
  return ranges;
}

const SizeRange& range_for(const std::vector<SizeRange>& ranges, int64_t bytes) {
  if (ranges.empty()) throw std::invalid_argument("range_for: no ranges");
  // The last range whose lower end is at or below `bytes`.
  auto it = std::upper_bound(ranges.begin(), ranges.end(), bytes,
                             [](int64_t b, const SizeRange& r) { return b < r.lo_bytes; });
  return it == ranges.begin() ? ranges.front() : *std::prev(it);
}

}  // namespace hiercoll
