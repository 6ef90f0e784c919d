#include "select/point_sampler.h"

#include <algorithm>

namespace hiercoll {

PointSampler::PointSampler(const std::vector<Candidate>& methods,
                           const MeasureFn& measure, const NoiseOptions& noise)
    : methods_(methods), measure_(measure), noise_(noise) {
  noise_.min_samples = std::max(1, noise_.min_samples);
  noise_.max_samples = std::max(noise_.min_samples, noise_.max_samples);
}

int PointSampler::measure(int method, int64_t segment) {
  points_.push_back(Point{method, segment, {}, {}});
  const int p = points() - 1;
  for (int i = 0; i < noise_.min_samples; ++i) sample(p);
  refine(p);
  return p;
}

void PointSampler::sample(int point) {
  Point& p = points_[point];
  const double t = measure_(methods_[p.method], p.segment);
  p.values.push_back(t);
  p.summary = summarize(p.values, noise_.confidence_z);
  ++samples_;
  total_us_ += t;
}

void PointSampler::refine(int point) {
  for (;;) {
    const int best = lowest([point](const Point&, int p) { return p != point; });
    if (best < 0) return;
    const SampleSummary& a = points_[point].summary;
    const SampleSummary& b = points_[best].summary;
    if (separated(a, b) || practically_equal(a, b, noise_.equal_within)) return;
    // The one with fewer samples (the new point on ties), unless at the cap.
    int next = a.n <= b.n ? point : best;
    if (points_[next].summary.n >= noise_.max_samples) next = next == point ? best : point;
    if (points_[next].summary.n >= noise_.max_samples) return;
    sample(next);
  }
}

int PointSampler::lowest(const std::function<bool(const Point&, int)>& take) const {
  int best = -1;
  for (int p = 0; p < points(); ++p) {
    if (!take(points_[p], p)) continue;
    if (best < 0 || points_[p].summary.median < points_[best].summary.median) best = p;
  }
  return best;
}

Measured PointSampler::measured(int point) const {
  const Point& p = points_[point];
  return Measured{methods_[p.method].name, p.segment, p.summary.median,
                  p.summary.lo, p.summary.hi, p.summary.n};
}

}  // namespace hiercoll
