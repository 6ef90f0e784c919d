#include "algorithms/barrier.h"

namespace hiercoll {

// Dissemination barrier (Hensgen, Finkel, Manber, as described in Thakur et
// al. §4.1.2): in round k, i sends to i + 2^k and receives from i - 2^k.
// Round k's message must carry everything i learnt so far, so it waits for
// round k-1's send and receive (the send chain carries the earlier rounds).
// Receives are posted at once.
Deps barrier_dissemination(ScheduleBuilder& b, const Group& g, const Deps& entry) {
  const int p = g.size, me = g.me;
  const int mark = b.num_steps();
  Deps prev = entry;
  for (int d = 1; d < p; d <<= 1) {
    const int s = b.send(g.peer((me + d) % p), kNoData, prev);
    const int r = b.recv(g.peer((me - d + p) % p), kNoData);
    prev = {s, r};
  }
  return b.steps_since(mark);
}

void build_barrier_dissemination(const CollArgs& a, ScheduleBuilder& b) {
  build_barrier_with(a, b, barrier_dissemination);
}

}  // namespace hiercoll
