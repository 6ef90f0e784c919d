#include "measure/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hcbench {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + mid);
  return (lower + upper) / 2;
}

Summary summarize(const std::vector<double>& samples) {
  Summary s;
  s.n = static_cast<int>(samples.size());
  if (samples.empty()) {
    s.min = s.median = s.max = kNaN;
    return s;
  }
  const auto mm = std::minmax_element(samples.begin(), samples.end());
  s.min = *mm.first;
  s.max = *mm.second;
  s.median = median(samples);
  return s;
}

double RootAggregate::spread() const {
  if (!(min > 0) || std::isnan(max)) return kNaN;
  return max / min;
}

RootAggregate aggregate_roots(const std::vector<RootSummary>& per_root) {
  RootAggregate a;
  a.roots = static_cast<int>(per_root.size());
  if (per_root.empty()) {
    a.median = a.min = a.max = kNaN;
    return a;
  }
  std::vector<double> medians;
  medians.reserve(per_root.size());
  a.reps = per_root.front().reps.n;
  a.min = std::numeric_limits<double>::infinity();
  a.max = -std::numeric_limits<double>::infinity();
  for (const RootSummary& r : per_root) {
    const double m = r.reps.median;
    medians.push_back(m);
    a.reps = std::min(a.reps, r.reps.n);
    if (m < a.min) {
      a.min = m;
      a.best_root = r.root;
    }
    if (m > a.max) {
      a.max = m;
      a.worst_root = r.root;
    }
  }
  a.median = median(medians);
  return a;
}

double speedup(double a, double b) {
  if (std::isnan(a) || std::isnan(b) || b == 0) return kNaN;
  return a / b;
}

}  // namespace hcbench
