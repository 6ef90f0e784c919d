// Statistics of the benchmark: median, min and max of repetitions, and the
// per-root aggregation of rooted operations (SKaMPI style: each root gets
// its own measurement; min / median / max are then taken over the roots'
// medians, so root dependence is visible).
#pragma once

#include <utility>
#include <vector>

namespace hcbench {

// The median of v (mean of the two middle values for an even count); NaN
// when v is empty.
double median(std::vector<double> v);

struct Summary {
  double min = 0;
  double median = 0;
  double max = 0;
  int n = 0;  // samples
};

// min / median / max of the samples (all NaN, n = 0, when empty).
Summary summarize(const std::vector<double>& samples);

// One root's summary over its repetitions.
struct RootSummary {
  int root = -1;
  Summary reps;
};

// A rooted operation's figures over its roots, each root represented by
// the median of its repetitions.
struct RootAggregate {
  double median = 0;  // median over roots of the per-root medians
  double min = 0;     // best root's median
  double max = 0;     // worst root's median
  int best_root = -1;
  int worst_root = -1;
  int roots = 0;
  int reps = 0;       // repetitions per root (the smallest count)
  // max / min over roots (1 = no root dependence); NaN when min is 0.
  double spread() const;
};

// Aggregates per-root summaries; an unrooted operation passes one entry
// with root -1 and gets that entry's median as min, median and max.
RootAggregate aggregate_roots(const std::vector<RootSummary>& per_root);

// a / b as a speedup of b over a ("how many times faster is b"); NaN when
// either is missing or b is 0.
double speedup(double a, double b);

}  // namespace hcbench
