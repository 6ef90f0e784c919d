// The pruned search over {method, segment size} at one (operation, message
// size, layout) point, after Vadhiyar, Fagg and Dongarra, "Automatically
// tuned collective communications", §4.2:
//
// - MGD (modified gradient descent), per method: segment sizes in
//   descending order, descending from the largest, looking past the first
//   minimum by `look_past` sizes (the curves have several local minima).
// - SMGD (scanning MGD), across methods: every method is first scanned
//   (its largest segment sizes measured), then the method whose next value,
//   predicted from its current best and gradient, is lowest advances one MGD
//   step at a time; a method whose best and predicted value are both
//   `drop_ratio` worse than the best of all is dropped.
// - Adaptive repetitions: a point is sampled until its interval is clearly
//   separated from the current best's, or a cap is hit (select/sample_stats.h).
//
// Pure and deterministic: no clocks, no randomness, no I/O. Every decision
// depends only on the values `measure` returns, so MPI ranks that agree on
// those values take the same path.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hiercoll {

// One candidate at one message size.
struct Candidate {
  std::string name;               // e.g. "native", "flat:ring"
  std::vector<int64_t> segments;  // bytes to try, any order; {0} = unsegmented
};

// One timed sample of a method at a segment size, in microseconds.
using MeasureFn = std::function<double(const Candidate& m, int64_t segment)>;

struct NoiseOptions {
  int min_samples = 3;   // every point is sampled at least this often
  int max_samples = 15;  // and never more often
  // Two-sided confidence of the order-statistics interval of the median
  // (select/sample_stats.h); the z value of the normal approximation.
  double confidence_z = 1.96;
  // Two points whose intervals both lie within this fraction of each other
  // count as equal: sampling stops (0 = off: equal points go to the cap).
  double equal_within = 0.0;
};

struct SearchOptions {
  bool exhaustive = false;    // every (method, segment), no pruning
  double drop_ratio = 0.5;    // drop a method once both its best and its
                              // predicted next value are > (1 + drop_ratio)
                              // times the best of all
  int look_past = 2;          // MGD: sizes tried past a minimum (>= 1)
  int scan_steps = 2;         // SMGD: sizes of each method measured before
                              // it may be dropped (its gradient is known;
                              // at least 1)
  NoiseOptions noise;
};

// A measured point: the median of its samples and the interval around it.
struct Measured {
  std::string method;
  int64_t segment = 0;
  double median_us = 0;
  double lo_us = 0, hi_us = 0;  // order-statistics interval of the median
  int samples = 0;
};

struct PointResult {
  Measured best;                     // the fastest point measured
  std::vector<Measured> per_method;  // each method's best segment as far as
                                     // measured (dropped ones too), in the
                                     // order of `methods`
  std::vector<std::string> dropped;  // methods SMGD dropped, in drop order
  int experiments = 0;               // distinct (method, segment) measured
  int samples = 0;                   // calls to `measure` in all
  double measured_us = 0;            // sum of all samples (the paper's "time")
};

struct SearchProgress {
  int experiments_done = 0;
  int candidates_left = 0;  // methods not dropped (they may still win)
  int searching = 0;        // methods whose MGD has not finished
  int experiments_left_at_most = 0;  // their sizes not measured yet
};

// Searches `methods` (non-empty; a method with no segments counts as {0}).
PointResult search_point(
    const std::vector<Candidate>& methods, const MeasureFn& measure,
    const SearchOptions& opt,
    const std::function<void(const SearchProgress&)>& progress = {});

}  // namespace hiercoll
