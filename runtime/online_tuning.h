// Online refinement (HIERCOLL_ONLINE_TUNING=1, hint hiercoll_online_tuning):
// where the model decides a blocking call (no tuning file's range, no knob
// forcing the operation), the first calls of each operation and size
// class on a communicator try the model's best few methods in turn
// (Decided::tries: kOnlineTries of them, kOnlineRounds rounds, each round
// trying all once, so that a drift of the machine falls on all alike; the
// first round, which builds the schedules, untimed).  After the last try
// one allreduce of the tries' times (the slowest rank's of each) lets
// every rank agree on the fastest by the median of its rounds, and the
// class keeps it on that communicator.  Another than the model's first
// must be faster than it by kOnlineMargin: one job's noise on a few calls
// (identical schedules differ by up to 13% between runs here) should not
// move the class off the model's choice.  Every rank counts
// a class's calls alike (collectives are called in the same order), so all
// run the same method at each call.  The model ranks the measured winner
// among its first three at most points where it misses it first
// (docs/results/agreement.md), so a few tries recover most of what it
// loses; a tuning file measures more, once, for every run.
#pragma once

#include <mpi.h>

#include <map>
#include <vector>

#include "runtime/decisions.h"

namespace hiercoll {

constexpr int kOnlineRounds = 5;
constexpr double kOnlineMargin = 0.95;

// The try whose median time over the rounds after the first is least
// among those below kOnlineMargin times the first try's (the model's
// first), else the first; ties to the earlier.  times[round * tries + i]:
// try i's time in a round.
int online_winner(const std::vector<double>& times, int tries);

// A class's tries on one communicator.
struct OnlineClass {
  int calls = 0;   // tries run so far
  int kept = -1;   // index into Decided::tries once agreed
  std::vector<double> times;
};
// A communicator's classes, by their process-wide decision.
struct OnlineTrials {
  std::map<const Decided*, OnlineClass> classes;
};

// What a blocking call of the class of `d` runs: the kept try, the next
// try (its clock started; end_online_try stops it), or, where nothing is
// tried, d's own range.  *algorithm: the range's flat algorithm (null: not
// flat).
const TunedRange* online_range(CommState* state, const Settings& s, const Decided& d,
                               const Algorithm** algorithm);

// Whether this thread's call is a try under way.
bool online_try_pending();
// Stops the clock of this thread's try (the call returned, whatever its
// code); after its class's last try the ranks agree (collective on the
// communicator: every rank is at the same call).
void end_online_try_now();
inline void end_online_try() {
  if (online_try_pending()) end_online_try_now();
}

}  // namespace hiercoll
