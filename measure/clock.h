// Synchronized start (SKaMPI style). Every rank keeps the offset of its
// clock (MPI_Wtime) to rank 0's, estimated by ping-pong with rank 0 (the
// exchange with the shortest round trip wins). Before each timed call the
// ranks agree on a common start time a little in the future (one allreduce
// of "now" plus a calibrated margin), wait for it, call, and report when
// they finished; the call's time is the LAST rank's end minus the common
// start. A rank that gets going after the start time (descheduled, or it
// learnt the start time too late) is late; its lateness is part of the
// measured time and is summed for the report. When the agreement itself
// came too late, the next agreement carries it so that the margin grows
// (and then decays back to the calibrated one).
//
// With sync = barrier instead: two barriers, then each rank times its own
// call and the call's time is the slowest rank's.
#pragma once

#include <mpi.h>

#include <vector>

namespace hcbench {

// Waits for a request; on an oversubscribed machine (`quiet`) by testing
// and sleeping 50 µs, so that a rank with nothing to do leaves the cores to
// those that measure.
void wait_request(MPI_Request* request, bool quiet);

class SyncClock {
 public:
  // Collective over ctrl. `yield`: sched_yield() while waiting (ranks
  // outnumber cores, so a spinning rank would steal a core from a working one).
  SyncClock(MPI_Comm ctrl, bool barrier_mode, bool yield);

  // Re-estimates the clock offsets (drift) and the start margin. Collective.
  void resync();
  // The synchronized clock in seconds.
  double now() const { return MPI_Wtime() + offset_; }
  // Collective: waits for the common start of the next call and returns
  // this rank's reference time for the call (the common start; in barrier
  // mode this rank's own start).
  double start();
  // The end of this rank's call, on the clock start() refers to.
  double stop() const { return barrier_mode_ ? MPI_Wtime() : now(); }
  // Calls started on this rank, and their summed lateness (s).
  long starts() const { return starts_; }
  double lateness_sum() const { return late_sum_; }
  double margin_us() const { return margin_ * 1e6; }
  double max_offset_us() const { return max_offset_ * 1e6; }

 private:
  void estimate_offsets();
  void calibrate_margin();

  MPI_Comm ctrl_;
  bool barrier_mode_;
  bool yield_;
  int rank_ = 0;
  int size_ = 1;
  double offset_ = 0;      // seconds to add to MPI_Wtime
  double max_offset_ = 0;  // largest |offset| over ranks (rank 0 knows)
  double margin_ = 50e-6;  // seconds between the agreement and the start
  double base_margin_ = 50e-6;  // the calibrated margin
  double lateness_ = 0;    // how late the agreement reached this rank at the last start (s)
  long starts_ = 0;
  double late_sum_ = 0;
};

}  // namespace hcbench
