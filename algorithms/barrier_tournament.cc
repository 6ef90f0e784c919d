#include "algorithms/barrier.h"

namespace hiercoll {

// Tournament barrier (Hensgen, Finkel, Manber 1988; Vadhiyar et al. §2.9).
// Arrival: in round k (d = 2^k) the ranks still in play are the multiples of
// d; the winner of each game is fixed statically: i with bit k clear waits
// for i + d (a bye when i + d >= p), i with bit k set reports to i - d and
// leaves the tournament.  Rank 0 is the champion after ceil(lg p) rounds.
// Wake-up (our variant): message passing has no global flag to spin on, so
// the champion releases the ranks it beat and every released winner
// releases those it beat, the latest game first; this is the reverse of the
// tournament tree, i.e. a binomial broadcast from rank 0.
Deps barrier_tournament(ScheduleBuilder& b, const Group& g, const Deps& entry) {
  const int p = g.size, me = g.me;
  const int mark = b.num_steps();
  Deps arrived = entry;  // my arrival message waits for these
  int d = 1;
  for (; d < p; d <<= 1) {
    if (me & d) {
      b.send(g.peer(me - d), kNoData, arrived);
      break;
    }
    if (me + d < p) arrived.push_back(b.recv(g.peer(me + d), kNoData));
  }
  // d is now the game I lost (or >= p for the champion); I beat me + d/2, ...
  const Deps woken = d < p ? Deps{b.recv(g.peer(me - d), kNoData)} : arrived;
  for (int e = d >> 1; e >= 1; e >>= 1)
    if (me + e < p) b.send(g.peer(me + e), kNoData, woken);
  return b.steps_since(mark);
}

void build_barrier_tournament(const CollArgs& a, ScheduleBuilder& b) { build_barrier_with(a, b, barrier_tournament); }

}  // namespace hiercoll
