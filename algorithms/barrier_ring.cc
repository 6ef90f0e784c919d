#include "algorithms/barrier.h"

namespace hiercoll {

// Extended ring barrier (Vadhiyar, Fagg, Dongarra §2.8).  First ring:
// member 0 sends to 1, member i forwards from i-1 to i+1 once it has
// entered, and p-1 sends back to 0; then 0 knows everyone has entered, and
// so does p-1 when its message arrives (0..p-2 entered before it).  Second
// ring: 0 sends the news to 1, which passes it on, until p-2 receives it.
// 2p-2 messages in sequence; the two between i and i+1 match in order.
Deps barrier_ring(ScheduleBuilder& b, const Group& g, const Deps& entry) {
  const int p = g.size, me = g.me;
  const int mark = b.num_steps();
  if (p == 1) return b.steps_since(mark);
  const int next = g.peer((me + 1) % p), prev = g.peer((me - 1 + p) % p);
  if (me == 0) {
    b.send(next, kNoData, entry);
    const int all_in = b.recv(prev, kNoData);
    if (p > 2) b.send(next, kNoData, {all_in});
    return b.steps_since(mark);
  }
  Deps first = entry;
  first.push_back(b.recv(prev, kNoData));
  b.send(next, kNoData, first);
  if (me < p - 1) {
    const int all_in = b.recv(prev, kNoData);
    if (me < p - 2) b.send(next, kNoData, {all_in});
  }
  return b.steps_since(mark);
}

void build_barrier_ring(const CollArgs& a, ScheduleBuilder& b) { build_barrier_with(a, b, barrier_ring); }

}  // namespace hiercoll
