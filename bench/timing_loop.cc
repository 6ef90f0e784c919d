#include "bench/timing_loop.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <unistd.h>

namespace hcbench {

namespace {

// Sleeps (leaving the cores to the ranks at work) until shortly before
// `when` on the synchronized clock, then spins to it.
void sleep_until(const SyncClock& clock, double when) {
  for (double left = when - clock.now(); left > 0; left = when - clock.now())
    if (left > 200e-6) usleep(static_cast<useconds_t>((left - 100e-6) * 1e6));
}

}  // namespace

int repetitions(const Options& opt, const std::vector<double>& estimate_us, int calls_each, const SyncClock& clock,
                MPI_Comm ctrl) {
  if (opt.reps > 0) return opt.reps;
  const int n = static_cast<int>(estimate_us.size());
  std::vector<double> agreed(n, 0);
  PMPI_Allreduce(estimate_us.data(), agreed.data(), n, MPI_DOUBLE, MPI_MAX, ctrl);
  double per_round = 0;  // µs for one round of calls, with the start overhead
  for (double e : agreed) per_round += (e + 2 * clock.margin_us() + 20) * calls_each;
  return static_cast<int>(std::clamp(std::floor(opt.point_seconds * 1e6 / per_round),
                                     static_cast<double>(opt.min_reps), static_cast<double>(opt.max_reps)));
}

void Runner::late_entry(double when) { sleep_until(*clock_, when); }

Runner::Runner(const Options& opt, MPI_Comm ctrl, std::vector<Impl>* impls, SyncClock* clock)
    : opt_(opt), ctrl_(ctrl), impls_(impls), clock_(clock) {
  PMPI_Comm_rank(ctrl_, &rank_);
  PMPI_Comm_size(ctrl_, &size_);
}

double Runner::timed_call(const Point& p, const Impl& impl, OpBuffers& b, int root, double delay_us) {
  const double t0 = clock_->start();
  if (delay_us > 0) late_entry(t0 + delay_us * 1e-6);
  call_op(*p.op, impl.via_hiercoll, b, root < 0 ? 0 : root, impl.comm);
  const double t1 = clock_->stop();
  return (t1 - t0) * 1e6;
}

std::vector<double> Runner::warm_up(const Point& p, const std::vector<Impl*>& active, OpBuffers& b,
                                    std::vector<int>* wrong) {
  const int n = static_cast<int>(active.size());
  std::vector<double> estimate(n, 0);
  const int warmups = std::max(opt_.warmup, opt_.check ? 1 : 0);
  for (int root : p.roots)
    for (int w = 0; w < warmups; ++w)
      for (int i = 0; i < n; ++i) {
        const bool check = opt_.check && w == 0;
        const int r = root < 0 ? 0 : root;
        if (check) fill_for_check(*p.op, b, rank_, size_, r);
        const double t = timed_call(p, *active[i], b, root);
        if (w == warmups - 1) estimate[i] = std::max(estimate[i], t);
        if (check && !verify(*p.op, b, rank_, size_, r)) (*wrong)[i] = 1;
      }
  return estimate;
}

// Repetition k visits every root (in an order rotated by k) and at each
// root every series (rotated by k), so that drift of the machine hits
// roots and implementations alike.  With --skew every call of repetition k
// has the same late ranks, and each implementation is also timed without
// them, for the ideal: the largest delay plus the fastest time without skew.
TimedCalls Runner::time_point(const Point& p, const std::vector<Impl*>& active, OpBuffers& b, int reps) {
  TimedCalls t;
  t.n = static_cast<int>(active.size());
  t.nroots = static_cast<int>(p.roots.size());
  const bool skewed = opt_.skew.any();
  t.series = skewed ? 2 * t.n : t.n;
  t.reps = reps;
  t.times.assign(static_cast<size_t>(t.nroots) * t.series * reps, 0);
  t.algorithm.resize(static_cast<size_t>(t.nroots) * t.n);
  t.largest_delay.assign(reps, 0);
  for (int k = 0; k < reps; ++k) {
    const std::vector<double> delays = skewed ? opt_.skew.delays(k, size_) : std::vector<double>(size_, 0);
    t.largest_delay[k] = *std::max_element(delays.begin(), delays.end());
    for (int q = 0; q < t.nroots; ++q) {
      const int ri = (q + k) % t.nroots;
      for (int j = 0; j < t.series; ++j) {
        const int s = (k + j) % t.series;
        const int i = s % t.n;
        t.times[t.at(ri, s, k)] = timed_call(p, *active[i], b, p.roots[ri], s < t.n ? delays[rank_] : 0);
        if (rank_ == 0 && k == reps - 1 && s < t.n)
          t.algorithm[static_cast<size_t>(ri) * t.n + i] = active[i]->algorithm(*p.op);
      }
    }
  }
  return t;
}

void Runner::record(const Point& p, const std::vector<Impl*>& active, const TimedCalls& t, Results* results,
                    std::vector<std::vector<double>>* medians) {
  std::vector<double> slowest(t.times.size(), 0);
  PMPI_Reduce(t.times.data(), slowest.data(), static_cast<int>(t.times.size()), MPI_DOUBLE, MPI_MAX, 0, ctrl_);
  if (rank_ != 0) return;
  for (int ri = 0; ri < t.nroots; ++ri) {
    for (int i = 0; i < t.n; ++i) {
      Measurement m;
      m.op = p.op->name;
      m.bytes = p.bytes;
      m.impl = active[i]->spec.name;
      m.algorithm = t.algorithm[static_cast<size_t>(ri) * t.n + i];
      m.root = p.roots[ri];
      m.samples.assign(slowest.begin() + static_cast<long>(t.at(ri, i, 0)),
                       slowest.begin() + static_cast<long>(t.at(ri, i, 0) + t.reps));
      (*medians)[i].push_back(m.summary().median);
      results->add(std::move(m));
    }
    if (t.series == t.n) continue;  // no skew
    Measurement ideal;
    ideal.op = p.op->name;
    ideal.bytes = p.bytes;
    ideal.impl = "ideal";
    ideal.algorithm = "largest delay + fastest without skew";
    ideal.root = p.roots[ri];
    for (int k = 0; k < t.reps; ++k) {
      double fastest = INFINITY;
      for (int i = 0; i < t.n; ++i) fastest = std::min(fastest, slowest[t.at(ri, t.n + i, k)]);
      ideal.samples.push_back(t.largest_delay[k] + fastest);
    }
    results->add(std::move(ideal));
  }
}

PointOutcome Runner::run(const Point& p, Results* results) {
  PointOutcome out;
  const double began = MPI_Wtime();
  const long starts_before = clock_->starts();
  const double late_before = clock_->lateness_sum();
  clock_->resync();
  // The implementations that can run this operation.
  std::vector<Impl*> active;
  for (Impl& i : *impls_) {
    const std::string why = i.skip_reason(*p.op);
    if (why.empty()) active.push_back(&i);
    else out.skipped.push_back(i.spec.name + ": " + why);
  }
  const int n = static_cast<int>(active.size());
  if (n == 0) return out;
  OpBuffers buf = make_buffers(*p.op, p.bytes, size_, rank_, opt_.counts);
  std::vector<int> wrong(n, 0);
  const std::vector<double> estimate = warm_up(p, active, buf, &wrong);
  // Fixed, or as many as fit the time per point (the same on every rank:
  // the estimates are agreed first).
  out.reps = repetitions(opt_, estimate, static_cast<int>(p.roots.size()), *clock_, ctrl_);
  const TimedCalls t = time_point(p, active, buf, out.reps);
  out.calls += static_cast<long>(t.nroots) * t.series * t.reps;
  std::vector<std::vector<double>> medians(n);  // per impl, per root (rank 0)
  record(p, active, t, results, &medians);

  // Wrong results anywhere, and late starts, summed over ranks.
  std::vector<int> any_wrong(n, 0);
  PMPI_Allreduce(wrong.data(), any_wrong.data(), n, MPI_INT, MPI_MAX, ctrl_);
  double late[2] = {clock_->lateness_sum() - late_before, static_cast<double>(clock_->starts() - starts_before)};
  double late_sum[2] = {0, 0};
  PMPI_Reduce(late, late_sum, 2, MPI_DOUBLE, MPI_SUM, 0, ctrl_);
  out.lateness_us = late_sum[1] > 0 ? late_sum[0] / late_sum[1] * 1e6 : 0;
  for (int i = 0; i < n; ++i) {
    if (any_wrong[i]) out.wrong.push_back(active[i]->spec.name);
    out.impls.push_back(active[i]->spec.name);
    out.median_us.push_back(rank_ == 0 ? median(medians[i]) : NAN);
  }
  if (rank_ == 0)
    for (const std::string& w : out.wrong) results->mark_wrong(p.op->name, p.bytes, w);
  out.seconds = MPI_Wtime() - began;
  return out;
}

}  // namespace hcbench
