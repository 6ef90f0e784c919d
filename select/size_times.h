// Each method's time at every size of the grid: as measured where the size
// was measured (its per-method bests), interpolated in log-log between the
// measured sizes around it elsewhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "select/search.h"

namespace hiercoll {

struct MethodTime {
  std::string method;
  double us = 0;
  int64_t segment = 0;
};

using TimeTable = std::vector<MethodTime>;  // one size

// `results[i]`: the search at sizes[i], or null where it was not measured
// (the first and the last must be measured). At an unmeasured size: the
// methods measured at both neighbours, each with its interpolated time and
// the segment of the nearer neighbour (in log scale), or the lower one's
// where that is not below the size; when no method is at both, the lower
// neighbour's table.
std::vector<TimeTable> time_tables(const std::vector<int64_t>& sizes,
                                   const std::vector<const PointResult*>& results);

// The method's entry, or null.
const MethodTime* find_method(const TimeTable& table, const std::string& method);

// The fastest entry, the earlier on ties (table non-empty).
const MethodTime& fastest(const TimeTable& table);

}  // namespace hiercoll
