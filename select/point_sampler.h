// The points measured at one message size and their adaptive repetitions:
// a new point is sampled `min_samples` times, then, while its interval
// overlaps the current best point's, the one of the two with fewer samples
// gets another, until they are separated, practically equal, or both hit
// `max_samples`. Sampling the incumbent too matters: it may have been
// measured only `min_samples` times, and its wide interval alone would
// otherwise keep every newcomer sampling to the cap.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "select/sample_stats.h"
#include "select/search.h"

namespace hiercoll {

class PointSampler {
 private:
  struct Point {
    int method;
    int64_t segment;
    std::vector<double> values;
    SampleSummary summary;
  };

 public:
  PointSampler(const std::vector<Candidate>& methods, const MeasureFn& measure,
               const NoiseOptions& noise);

  // Measures (method index, segment) for the first time; returns the point.
  int measure(int method, int64_t segment);

  const SampleSummary& summary(int point) const { return points_[point].summary; }
  int method_of(int point) const { return points_[point].method; }
  Measured measured(int point) const;

  // Lowest median (the earlier point on ties); -1 when none yet.
  int best_point() const {
    return lowest([](const Point&, int) { return true; });
  }
  int best_point_of(int method) const {
    return lowest([method](const Point& p, int) { return p.method == method; });
  }

  int points() const { return static_cast<int>(points_.size()); }
  int samples() const { return samples_; }
  double total_us() const { return total_us_; }

 private:
  void sample(int point);
  void refine(int point);
  // Lowest median among the points `take` accepts, the earlier on ties.
  int lowest(const std::function<bool(const Point&, int)>& take) const;

  const std::vector<Candidate>& methods_;
  const MeasureFn& measure_;
  NoiseOptions noise_;
  std::vector<Point> points_;
  int samples_ = 0;
  double total_us_ = 0;
};

}  // namespace hiercoll
