#include "select/sample_stats.h"

#include <algorithm>
#include <cmath>

namespace hiercoll {

SampleSummary summarize(std::vector<double> samples, double z) {
  std::sort(samples.begin(), samples.end());
  const int n = static_cast<int>(samples.size());
  SampleSummary s;
  s.n = n;
  if (n == 0) return s;
  s.median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  const double half = z * std::sqrt(static_cast<double>(n)) / 2;
  const int l = static_cast<int>(std::floor(n / 2.0 - half));
  const int u = static_cast<int>(std::ceil(1 + n / 2.0 + half));
  s.lo = samples[std::clamp(l, 1, n) - 1];
  s.hi = samples[std::clamp(u, 1, n) - 1];
  return s;
}

bool separated(const SampleSummary& a, const SampleSummary& b) {
  return a.hi < b.lo || b.hi < a.lo;
}

bool practically_equal(const SampleSummary& a, const SampleSummary& b,
                       double within) {
  if (within <= 0) return false;
  return std::max(a.hi, b.hi) <= (1 + within) * std::min(a.lo, b.lo);
}

}  // namespace hiercoll
