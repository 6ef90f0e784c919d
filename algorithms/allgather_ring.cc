#include "algorithms/allgather.h"

namespace hiercoll {

// Ring (Thakur et al. §4.1): in step s member i sends block i - s to i + 1
// and receives block i - s - 1 from i - 1; p - 1 steps.  All receives can be
// posted at once; each forward waits only for the block it forwards.
void allgather_ring_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf buf) {
  const int p = g.size, me = g.me;
  const int right = g.peer((me + 1) % p), left = g.peer((me + p - 1) % p);
  for (int s = 0; s + 1 < p; ++s) {
    send_nonempty(b, right, L.span(buf, (me - s + p) % p));
    recv_nonempty(b, left, L.span(buf, (me - s - 1 + 2 * p) % p));
  }
}

void build_allgather_ring(const CollArgs& a, ScheduleBuilder& b) { build_allgather_with(a, b, allgather_ring_blocks); }

}  // namespace hiercoll
