// The timing loop. For one point (operation, size): warm-up calls of every
// implementation at every root (the first one checks the result), then
// repetitions; repetition k visits every root, in an order rotated by k,
// and at each root the implementations take turns, rotated by k (impl k,
// k+1, ... mod n), so that drift of the machine hits all implementations
// and roots alike. Every call starts synchronized (measure/clock.h); the per-call
// time is the slowest rank's; rank 0 collects them (one reduction per
// point, after the timing).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "bench/options.h"
#include "measure/calls.h"
#include "measure/clock.h"
#include "measure/impls.h"
#include "measure/results.h"

namespace hcbench {

struct Point {
  const OpInfo* op = nullptr;
  int64_t bytes = 0;        // effective bytes (measure/calls.h)
  std::vector<int> roots;   // {-1} for operations without a root
};

struct PointOutcome {
  int reps = 0;                      // per root and implementation
  long calls = 0;                    // timed calls on this rank
  double lateness_us = 0;            // mean lateness of a rank's start (measure/clock.h), over all ranks
  std::vector<std::string> wrong;    // implementations whose checked call was wrong
  std::vector<std::string> skipped;  // "impl: reason"
  std::vector<std::string> impls;    // the implementations that ran
  std::vector<double> median_us;     // theirs (median over roots; rank 0 only)
  double seconds = 0;
};

// The timed calls of one point on one rank: series s of root index ri
// (an implementation; with --skew also each one timed without the skew,
// series n + i), repetition k at times[at(ri, s, k)].
struct TimedCalls {
  int n = 0, nroots = 0, series = 0, reps = 0;
  std::vector<double> times;
  std::vector<double> largest_delay;   // per repetition
  std::vector<std::string> algorithm;  // [ri * n + i], rank 0
  size_t at(int ri, int s, int k) const { return (static_cast<size_t>(ri) * series + s) * reps + k; }
};

class Runner {
 public:
  Runner(const Options& opt, MPI_Comm ctrl, std::vector<Impl>* impls, SyncClock* clock);
  // Collective over ctrl. On rank 0, adds one Measurement per (impl, root) to *results.
  PointOutcome run(const Point& p, Results* results);

 private:
  // `delay_us`: this rank enters the call that late after the common start.
  double timed_call(const Point& p, const Impl& impl, OpBuffers& b, int root, double delay_us = 0);
  // Warm-up calls at every root; the first of each checked (*wrong), the
  // last one's time the estimate returned.
  std::vector<double> warm_up(const Point& p, const std::vector<Impl*>& active, OpBuffers& b, std::vector<int>* wrong);
  TimedCalls time_point(const Point& p, const std::vector<Impl*>& active, OpBuffers& b, int reps);
  // The slowest rank's time of every call, on rank 0 as Measurements (and
  // the ideal under --skew); each implementation's median per root.
  void record(const Point& p, const std::vector<Impl*>& active, const TimedCalls& t, Results* results,
              std::vector<std::vector<double>>* medians);

  void late_entry(double when);

  const Options& opt_;
  MPI_Comm ctrl_;
  std::vector<Impl>* impls_;
  SyncClock* clock_;
  int rank_ = 0;
  int size_ = 1;
};

// Repetitions per series of a point: --reps, or (automatic) as many rounds
// as fit --point-seconds, within --min-reps..--max-reps, a round being
// `calls_each` calls of every series, each as long as its estimate (µs,
// the largest over ranks) plus the clock's start overhead.  The same on
// every rank (collective over ctrl when automatic).
int repetitions(const Options& opt, const std::vector<double>& estimate_us, int calls_each, const SyncClock& clock,
                MPI_Comm ctrl);


}  // namespace hcbench
