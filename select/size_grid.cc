#include "select/size_grid.h"

#include <algorithm>
#include <stdexcept>

#include "select/size_ranges.h"
#include "select/size_times.h"

namespace hiercoll {
namespace {

// The first pass: smallest, largest and every stride-th size (all when
// exhaustive).
std::vector<int> first_pass(int n, const GridOptions& opt) {
  const int stride = opt.exhaustive ? 1 : std::max(1, opt.coarse_stride);
  std::vector<int> picks;
  for (int i = 0; i < n; i += stride) picks.push_back(i);
  if (picks.back() != n - 1) picks.push_back(n - 1);
  return picks;
}

// The middle of the first gap between two measured sizes that pick
// different methods; -1 when there is none.
int next_refinement(const std::vector<const PointResult*>& at) {
  int lo = 0;
  for (int i = 1; i < static_cast<int>(at.size()); ++i) {
    if (!at[i]) continue;
    if (i > lo + 1 && at[lo]->best.method != at[i]->best.method) return (lo + i) / 2;
    lo = i;
  }
  return -1;
}

std::vector<SizeDecision> decide(const std::vector<int64_t>& sizes,
                                 const std::vector<const PointResult*>& at,
                                 const std::vector<TimeTable>& tables) {
  std::vector<SizeDecision> out;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (at[i]) {
      const Measured& b = at[i]->best;
      out.push_back(SizeDecision{sizes[i], b.method, b.segment, b.median_us, true});
    } else {
      const MethodTime& f = fastest(tables[i]);
      out.push_back(SizeDecision{sizes[i], f.method, f.segment, f.us, false});
    }
  }
  return out;
}

}  // namespace

GridResult search_sizes(
    const std::vector<int64_t>& sizes,
    const std::function<PointResult(int64_t bytes)>& measure_point, const GridOptions& opt,
    const std::function<void(int64_t bytes, int index, int total_planned)>& progress) {
  if (sizes.empty()) throw std::invalid_argument("search_sizes: no sizes");
  for (size_t i = 1; i < sizes.size(); ++i) {
    if (sizes[i] <= sizes[i - 1]) throw std::invalid_argument("search_sizes: sizes not ascending");
  }
  const int n = static_cast<int>(sizes.size());
  std::vector<PointResult> results(n);
  std::vector<const PointResult*> at(n, nullptr);
  GridResult r;
  const std::vector<int> first = first_pass(n, opt);
  int planned = static_cast<int>(first.size());
  auto measure = [&](int i) {
    if (progress) progress(sizes[i], r.points_measured, planned);
    results[i] = measure_point(sizes[i]);
    at[i] = &results[i];
    r.points_measured++;
    r.experiments += results[i].experiments;
    r.samples += results[i].samples;
    r.measured_us += results[i].measured_us;
  };
  for (int i : first) measure(i);
  for (int i; (i = next_refinement(at)) >= 0;) {
    ++planned;
    measure(i);
  }
  for (int i = 0; i < n; ++i) {
    if (at[i]) r.points.push_back(MeasuredSize{sizes[i], results[i]});
  }
  const std::vector<TimeTable> tables = time_tables(sizes, at);
  r.decisions = decide(sizes, at, tables);
  r.ranges = make_ranges(r.decisions, tables);
  return r;
}

}  // namespace hiercoll
