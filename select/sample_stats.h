// Robust summary of repeated timings: the median and a distribution-free
// confidence interval for it from order statistics, and the tests that
// decide when two points are told apart.
//
// Why the median and order statistics: timings of collectives are skewed
// with rare large outliers (a descheduled rank, a TCP retransmit). The
// median ignores them, and the interval [x(l), x(u)] of the sorted samples
// covers the true median with probability ~ the chosen confidence whatever
// the distribution (the count of samples below the median is
// Binomial(n, 1/2); l and u come from its normal approximation). With few
// samples the interval is the whole range, so a single outlier keeps two
// points "not yet separated" and more samples are taken.
#pragma once

#include <vector>

namespace hiercoll {

struct SampleSummary {
  double median = 0;
  double lo = 0, hi = 0;  // interval of the median
  int n = 0;
};

// Summary of `samples` (non-empty). `z`: normal quantile of the confidence
// (1.96 for 95%). Ranks, 1-based and clamped to [1, n]:
//   l = floor(n/2 - z*sqrt(n)/2),  u = ceil(1 + n/2 + z*sqrt(n)/2).
SampleSummary summarize(std::vector<double> samples, double z);

// True when the intervals do not overlap: one point is clearly faster.
bool separated(const SampleSummary& a, const SampleSummary& b);

// True when both intervals lie within `within` (a fraction) of each other,
// so which of the two is faster no longer matters. within <= 0: never.
bool practically_equal(const SampleSummary& a, const SampleSummary& b,
                       double within);

}  // namespace hiercoll
