#include <algorithm>

#include "algorithms/alltoall.h"

namespace hiercoll {

// Isend/irecv to all (Thakur et al. §4.3): peers are taken in the order
// (rank + i) % p rather than i so that not everyone hits rank 0 first.  In
// batch step i a rank receives from rank + i and sends to rank - i, the one
// that receives from it in the same step i, so a batch never waits on a
// message of a later batch.  Each batch starts when the previous completed.
void build_alltoall_scattered(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size, me = a.rank;
  const Blocks in = send_blocks(a), out = all_blocks(a);
  alltoall_copy_own(a, b);
  Deps prev;
  for (int first = 1; first < p; first += kAlltoallBatch) {
    const int last = std::min(first + kAlltoallBatch, p);
    const int mark = b.num_steps();
    for (int i = first; i < last; ++i) {
      const int from = (me + i) % p;
      recv_nonempty(b, from, out.span(Buf::kRecv, from), prev);
    }
    for (int i = first; i < last; ++i) {
      const int to = (me - i + p) % p;
      send_nonempty(b, to, in.span(Buf::kSend, to), prev);
    }
    if (b.num_steps() > mark) prev = b.steps_since(mark);
  }
}

}  // namespace hiercoll
