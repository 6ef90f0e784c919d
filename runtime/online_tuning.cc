#include "runtime/online_tuning.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "decide/candidate.h"
#include "runtime/comm_state.h"

namespace hiercoll {

namespace {

struct PendingTry {
  CommState* state = nullptr;
  const Decided* decided = nullptr;
  OnlineClass* cls = nullptr;
  bool verbose = false;
  double start = 0;
};
thread_local PendingTry pending;

// Try i's median over the timed rounds (all but the first).
double timed_median(const std::vector<double>& times, int tries, int i) {
  const int rounds = static_cast<int>(times.size()) / tries;
  std::vector<double> mine;
  for (int r = rounds > 1 ? 1 : 0; r < rounds; ++r) mine.push_back(times[static_cast<size_t>(r * tries + i)]);
  if (mine.empty()) return 0;
  std::sort(mine.begin(), mine.end());
  const size_t h = mine.size() / 2;
  return mine.size() % 2 ? mine[h] : (mine[h - 1] + mine[h]) / 2;
}

std::string try_text(const TunedRange& r) {
  MethodChoice c;
  c.method = r.method;
  c.segment_bytes = r.segment_bytes;
  return candidate_text(c);
}

void say_kept(const PendingTry& p, const std::vector<double>& times) {
  const std::vector<TunedRange>& tries = p.decided->tries;
  const int n = static_cast<int>(tries.size());
  std::string text;
  for (int i = 0; i < n; ++i) {
    char b[64];
    std::snprintf(b, sizeof b, " %.1f us", timed_median(times, n, i) * 1e6);
    text += (i ? ", " : " ") + try_text(tries[static_cast<size_t>(i)]) + b;
  }
  std::fprintf(stderr, "hiercoll: online tuning on %d ranks, the model's first%s: keeps %s\n",
               p.state->topology->layout->size, text.c_str(),
               try_text(tries[static_cast<size_t>(p.cls->kept)]).c_str());
}

}  // namespace

int online_winner(const std::vector<double>& times, int tries) {
  if (tries < 1) return 0;
  const double first = timed_median(times, tries, 0);
  int best = 0;
  double best_median = first * kOnlineMargin;
  for (int i = 1; i < tries; ++i) {
    const double m = timed_median(times, tries, i);
    if (m < best_median) {
      best = i;
      best_median = m;
    }
  }
  return best;
}

const TunedRange* online_range(CommState* state, const Settings& s, const Decided& d,
                               const Algorithm** algorithm) {
  *algorithm = d.algorithm;
  const int n = static_cast<int>(d.tries.size());
  if (n < 2) return &d.range;
  if (!state->online) state->online = std::make_unique<OnlineTrials>();
  OnlineClass& cls = state->online->classes[&d];
  int i = cls.kept;
  if (i < 0) {
    i = cls.calls % n;
    pending = PendingTry{state, &d, &cls, s.verbose && state->topology->rank == 0, PMPI_Wtime()};
  }
  *algorithm = d.try_algorithms[static_cast<size_t>(i)];
  return &d.tries[static_cast<size_t>(i)];
}

bool online_try_pending() { return pending.cls != nullptr; }

void end_online_try_now() {
  const PendingTry p = pending;
  pending = PendingTry{};
  const double took = PMPI_Wtime() - p.start;
  OnlineClass& cls = *p.cls;
  const int n = static_cast<int>(p.decided->tries.size());
  cls.times.push_back(took);
  if (++cls.calls < n * kOnlineRounds) return;
  // The slowest rank's time of each try: the collective's.
  PMPI_Allreduce(MPI_IN_PLACE, cls.times.data(), static_cast<int>(cls.times.size()), MPI_DOUBLE, MPI_MAX,
                 p.state->topology->comm);
  cls.kept = online_winner(cls.times, n);
  if (p.verbose) say_kept(p, cls.times);
}

}  // namespace hiercoll
