#include "algorithms/barrier.h"

namespace hiercoll {

// Recursive doubling barrier: in round k, i exchanges with i ^ 2^k, each
// send waiting for the previous round's send and receive.  For a
// non-power-of-two p the group is folded onto p' = 2^floor(lg p) as in
// Thakur et al. §5.1: with r = p - p', among ranks 0..2r-1 each odd rank
// reports to its even left neighbour and sits out; the remaining ranks
// (even ones below 2r, all from 2r) are renumbered 0..p'-1, run the
// exchange, and the even ranks finally release their odd neighbours.
Deps barrier_recursive_doubling(ScheduleBuilder& b, const Group& g, const Deps& entry) {
  const int p = g.size, me = g.me;
  const int mark = b.num_steps();
  int pof2 = 1;
  while (pof2 * 2 <= p) pof2 *= 2;
  const int r = p - pof2;
  if (me < 2 * r && me % 2 == 1) {
    b.send(g.peer(me - 1), kNoData, entry);
    b.recv(g.peer(me - 1), kNoData);
    return b.steps_since(mark);
  }
  Deps prev = entry;
  if (me < 2 * r) prev.push_back(b.recv(g.peer(me + 1), kNoData));
  const int v = me < 2 * r ? me / 2 : me - r;
  auto real = [r](int w) { return w < r ? 2 * w : w + r; };
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int partner = g.peer(real(v ^ mask));
    const int s = b.send(partner, kNoData, prev);
    const int rv = b.recv(partner, kNoData);
    prev = {s, rv};
  }
  if (me < 2 * r) b.send(g.peer(me + 1), kNoData, prev);
  return b.steps_since(mark);
}

void build_barrier_recursive_doubling(const CollArgs& a, ScheduleBuilder& b) {
  build_barrier_with(a, b, barrier_recursive_doubling);
}

}  // namespace hiercoll
