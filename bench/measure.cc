#include "bench/measure.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <unistd.h>

namespace hcbench {

std::vector<int> choose_roots(const std::string& which, const std::vector<int>& node_of) {
  const int size = static_cast<int>(node_of.size());
  std::vector<int> roots;
  if (which == "all" || (which == "auto" && size <= 16)) {
    for (int r = 0; r < size; ++r) roots.push_back(r);
    return roots;
  }
  if (which == "auto" || which == "sample") {
    const int nodes = size ? *std::max_element(node_of.begin(), node_of.end()) + 1 : 0;
    for (int n = 0; n < nodes; ++n) {
      int lo = -1, hi = -1;
      for (int r = 0; r < size; ++r)
        if (node_of[r] == n) {
          if (lo < 0) lo = r;
          hi = r;
        }
      roots.push_back(lo);
      if (hi != lo) roots.push_back(hi);
    }
  } else {
    std::istringstream in(which);
    std::string item;
    while (std::getline(in, item, ',')) {
      const int r = std::atoi(item.c_str());
      if (r >= 0 && r < size) roots.push_back(r);
    }
  }
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  if (roots.empty()) roots.push_back(0);
  return roots;
}

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
  std::vector<std::vector<double>> medians(n);  // per impl, per root (rank 0)
  if (n == 0) return out;

  OpBuffers buf = make_buffers(*p.op, p.bytes, size_, rank_, opt_.counts);
  std::vector<int> wrong(n, 0);
  const int nroots = static_cast<int>(p.roots.size());
  auto root_arg = [&](int r) { return r < 0 ? 0 : r; };

  // Warm-up of every root and implementation; the first call of each
  // checks its result. The last warm-up call gives the time estimate.
  std::vector<double> estimate(n, 0);
  const int warmups = std::max(opt_.warmup, opt_.check ? 1 : 0);
  for (int root : p.roots)
    for (int w = 0; w < warmups; ++w)
      for (int i = 0; i < n; ++i) {
        const bool check = opt_.check && w == 0;
        if (check) fill_for_check(*p.op, buf, rank_, size_, root_arg(root));
        const double t = timed_call(p, *active[i], buf, root);
        if (w == warmups - 1) estimate[i] = std::max(estimate[i], t);
        if (check && !verify(*p.op, buf, rank_, size_, root_arg(root))) wrong[i] = 1;
      }

  // Repetitions: fixed, or as many as fit the time per point (the same on
  // every rank: the estimates are agreed first).
  const int reps = repetitions(opt_, estimate, nroots, *clock_, ctrl_);
  out.reps = reps;

  // Timing. Repetition k visits every root (in an order rotated by k) and
  // at each root every implementation (rotated by k), so that drift of the
  // machine hits roots and implementations alike.
  // times[(root index * n + impl) * reps + k]
  // With --skew every call of repetition k has the same late ranks, and
  // each implementation is also timed without them (series n + i), for
  // the ideal: the largest delay plus the fastest time without skew.
  const bool skewed = opt_.skew.any();
  const int series_per_root = skewed ? 2 * n : n;
  std::vector<double> times(static_cast<size_t>(nroots) * series_per_root * reps, 0);
  std::vector<std::string> algorithm(static_cast<size_t>(nroots) * n);
  std::vector<double> largest_delay(reps, 0);
  for (int k = 0; k < reps; ++k) {
    const std::vector<double> delays = skewed ? opt_.skew.delays(k, size_) : std::vector<double>(size_, 0);
    largest_delay[k] = *std::max_element(delays.begin(), delays.end());
    for (int q = 0; q < nroots; ++q) {
      const int ri = (q + k) % nroots;
      for (int j = 0; j < series_per_root; ++j) {
        const int s = (k + j) % series_per_root;
        const int i = s % n;
        const size_t series = static_cast<size_t>(ri) * series_per_root + s;
        times[series * reps + k] = timed_call(p, *active[i], buf, p.roots[ri], s < n ? delays[rank_] : 0);
        if (rank_ == 0 && k == reps - 1 && s < n) algorithm[static_cast<size_t>(ri) * n + i] = active[i]->algorithm(*p.op);
      }
    }
  }
  out.calls += static_cast<long>(nroots) * series_per_root * reps;

  // The slowest rank's time of every call.
  std::vector<double> slowest(times.size(), 0);
  PMPI_Reduce(times.data(), slowest.data(), static_cast<int>(times.size()), MPI_DOUBLE, MPI_MAX, 0, ctrl_);
  if (rank_ == 0) {
    for (int ri = 0; ri < nroots; ++ri) {
      for (int i = 0; i < n; ++i) {
        const size_t series = static_cast<size_t>(ri) * series_per_root + i;
        Measurement m;
        m.op = p.op->name;
        m.bytes = p.bytes;
        m.impl = active[i]->spec.name;
        m.algorithm = algorithm[static_cast<size_t>(ri) * n + i];
        m.root = p.roots[ri];
        m.samples.assign(slowest.begin() + static_cast<long>(series * reps),
                         slowest.begin() + static_cast<long>((series + 1) * reps));
        medians[i].push_back(m.summary().median);
        results->add(std::move(m));
      }
      if (!skewed) continue;
      Measurement ideal;
      ideal.op = p.op->name;
      ideal.bytes = p.bytes;
      ideal.impl = "ideal";
      ideal.algorithm = "largest delay + fastest without skew";
      ideal.root = p.roots[ri];
      for (int k = 0; k < reps; ++k) {
        double fastest = INFINITY;
        for (int i = 0; i < n; ++i)
          fastest = std::min(fastest, slowest[(static_cast<size_t>(ri) * series_per_root + n + i) * reps + k]);
        ideal.samples.push_back(largest_delay[k] + fastest);
      }
      results->add(std::move(ideal));
    }
  }

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
