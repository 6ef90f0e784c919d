// The search over the grid of message sizes (the paper's §4.1, technique
// 1: a reduced number of grid points with interpolation). The smallest and
// largest sizes and every `coarse_stride`-th size are measured; then, while
// two neighbouring measured sizes pick different methods, the size halfway
// between them is measured too. At an unmeasured size each method's time
// is interpolated in log-log between the measured sizes around it (only
// methods measured at both), and the fastest wins.
//
// The decisions become size ranges covering every size: where two
// neighbouring grid sizes pick different methods, the boundary is where
// their interpolated times cross, so a size between them gets the method
// that is faster there.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "select/search.h"

namespace hiercoll {

// The choice at one size of the grid.
struct SizeDecision {
  int64_t bytes = 0;
  std::string method;
  int64_t segment = 0;      // from the nearer measured size, below `bytes`
  double predicted_us = 0;  // measured median, or interpolated
  bool measured = false;
};

// [lo_bytes, hi_bytes) -> method and segment. The segment may be >= the
// message size in the first range (sizes below the smallest of the grid):
// such a segment means unsegmented.
struct SizeRange {
  int64_t lo_bytes = 0;
  int64_t hi_bytes = std::numeric_limits<int64_t>::max();  // the last: INT64_MAX
  std::string method;
  int64_t segment = 0;
};

struct GridOptions {
  bool exhaustive = false;  // every size measured
  int coarse_stride = 2;    // the first pass measures every stride-th size
};

struct MeasuredSize {
  int64_t bytes = 0;
  PointResult result;
};

struct GridResult {
  std::vector<SizeDecision> decisions;  // one per grid size, ascending
  std::vector<SizeRange> ranges;        // contiguous, from 0 to INT64_MAX
  std::vector<MeasuredSize> points;     // the sizes measured, ascending
  int experiments = 0;                  // sums over the measured sizes
  int samples = 0;
  double measured_us = 0;
  int points_measured = 0;
};

// `sizes`: the grid, ascending and distinct (else std::invalid_argument).
// `measure_point(bytes)` searches one size (search_point). `progress` is
// called before each size is measured with its index among the measured
// ones and the number planned so far.
GridResult search_sizes(
    const std::vector<int64_t>& sizes,
    const std::function<PointResult(int64_t bytes)>& measure_point,
    const GridOptions& opt,
    const std::function<void(int64_t bytes, int index, int total_planned)>& progress = {});

// The range holding `bytes` (ranges as search_sizes makes them, bytes >= 0).
const SizeRange& range_for(const std::vector<SizeRange>& ranges, int64_t bytes);

}  // namespace hiercoll
