#include "measure/clock.h"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cmath>

#include "measure/stats.h"

namespace hcbench {

namespace {
constexpr int kPingPongs = 12;    // per rank and resync
constexpr int kMarginTrials = 15;
constexpr int kTag = 7311;
}  // namespace

void wait_request(MPI_Request* request, bool quiet) {
  if (!quiet) {
    PMPI_Wait(request, MPI_STATUS_IGNORE);
    return;
  }
  int done = 0;
  const timespec pause = {0, 50000};
  while (PMPI_Test(request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) nanosleep(&pause, nullptr);
}

SyncClock::SyncClock(MPI_Comm ctrl, bool barrier_mode, bool yield)
    : ctrl_(ctrl), barrier_mode_(barrier_mode), yield_(yield) {
  PMPI_Comm_rank(ctrl_, &rank_);
  PMPI_Comm_size(ctrl_, &size_);
  resync();
}

void SyncClock::resync() {
  if (barrier_mode_) return;
  estimate_offsets();
  calibrate_margin();
}

void SyncClock::estimate_offsets() {
  // Rank 0 serves every other rank in turn: r sends its time a, rank 0
  // answers with its time b, r receives at c: offset = b - (a + c) / 2,
  // from the exchange with the smallest c - a. A rank waits for its turn
  // (rank 0's "go") without spinning.
  PMPI_Barrier(ctrl_);
  if (rank_ == 0) {
    for (int r = 1; r < size_; ++r) {
      const int go = 1;
      PMPI_Send(&go, 1, MPI_INT, r, kTag, ctrl_);
      for (int i = 0; i < kPingPongs; ++i) {
        double a;
        PMPI_Recv(&a, 1, MPI_DOUBLE, r, kTag, ctrl_, MPI_STATUS_IGNORE);
        const double b = MPI_Wtime();
        PMPI_Send(&b, 1, MPI_DOUBLE, r, kTag, ctrl_);
      }
    }
    offset_ = 0;
  } else {
    int go = 0;
    MPI_Request request;
    PMPI_Irecv(&go, 1, MPI_INT, 0, kTag, ctrl_, &request);
    wait_request(&request, yield_);
    double best_rtt = INFINITY;
    for (int i = 0; i < kPingPongs; ++i) {
      const double a = MPI_Wtime();
      PMPI_Send(&a, 1, MPI_DOUBLE, 0, kTag, ctrl_);
      double b;
      PMPI_Recv(&b, 1, MPI_DOUBLE, 0, kTag, ctrl_, MPI_STATUS_IGNORE);
      const double c = MPI_Wtime();
      if (c - a < best_rtt) {
        best_rtt = c - a;
        offset_ = b - (a + c) / 2;
      }
    }
  }
  const double mine = std::fabs(offset_);
  PMPI_Reduce(&mine, &max_offset_, 1, MPI_DOUBLE, MPI_MAX, 0, ctrl_);
}

void SyncClock::calibrate_margin() {
  // How long after the agreement the last rank knows the start time: the
  // allreduce's exit skew. Margin = 2 x its median over trials + 10 µs.
  std::vector<double> lags;
  for (int t = 0; t < kMarginTrials; ++t) {
    double mine = now(), agreed = 0;
    PMPI_Allreduce(&mine, &agreed, 1, MPI_DOUBLE, MPI_MAX, ctrl_);
    double lag = now() - agreed, worst = 0;
    PMPI_Allreduce(&lag, &worst, 1, MPI_DOUBLE, MPI_MAX, ctrl_);
    lags.push_back(worst);
  }
  base_margin_ = margin_ = 2 * median(lags) + 10e-6;
  lateness_ = 0;
}

double SyncClock::start() {
  if (barrier_mode_) {
    PMPI_Barrier(ctrl_);
    PMPI_Barrier(ctrl_);
    return MPI_Wtime();
  }
  // Agree on the start: the latest "now", and the worst lateness of the
  // agreement at the previous start (a rank that learnt the start time only
  // after it), which widens the margin (shrinking back by 10% per call
  // while all are on time).
  double mine[2] = {now(), lateness_}, agreed[2] = {0, 0};
  PMPI_Allreduce(mine, agreed, 2, MPI_DOUBLE, MPI_MAX, ctrl_);
  if (agreed[1] > 0) margin_ = std::min(margin_ + agreed[1], 0.02);
  else margin_ = std::max(base_margin_, margin_ * 0.9);
  const double t0 = agreed[0] + margin_;
  ++starts_;
  lateness_ = now() - t0;
  if (lateness_ > 0) {
    late_sum_ += lateness_;
    return t0;
  }
  lateness_ = 0;
  if (yield_) {
    // Oversubscribed: sleep through most of the wait (a spinning rank would
    // take a core from one still on its way here), then yield-spin.
    const double rest = t0 - now() - 100e-6;  // timer slack is 50 µs
    if (rest > 0) {
      const timespec pause = {0, static_cast<long>(rest * 1e9)};
      nanosleep(&pause, nullptr);
    }
  }
  while (now() < t0)
    if (yield_) sched_yield();
  // Overslept or descheduled across the start: late as well, but no
  // reason to widen the margin.
  late_sum_ += now() - t0;
  return t0;
}

}  // namespace hcbench
