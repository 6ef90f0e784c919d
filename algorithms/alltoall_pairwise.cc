#include "algorithms/alltoall.h"

namespace hiercoll {

// Pairwise exchange (Thakur et al. §4.3): in step k = 1..p-1 a rank
// exchanges with rank ^ k when p is a power of two, otherwise it sends to
// rank + k and receives from rank - k.  Data goes straight from source to
// destination; each step is a sendrecv that starts when the previous one
// has completed, so only one exchange per rank is in flight.  Alltoallv's
// empty blocks are no message.
void build_alltoall_pairwise(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size, me = a.rank;
  const bool pow2 = (p & (p - 1)) == 0;
  const Blocks in = send_blocks(a), out = all_blocks(a);
  alltoall_copy_own(a, b);
  Deps prev;
  for (int k = 1; k < p; ++k) {
    const int to = pow2 ? me ^ k : (me + k) % p;
    const int from = pow2 ? me ^ k : (me - k + p) % p;
    const int mark = b.num_steps();
    recv_nonempty(b, from, out.span(Buf::kRecv, from), prev);
    send_nonempty(b, to, in.span(Buf::kSend, to), prev);
    // A step that moves nothing keeps the previous step's completion.
    if (b.num_steps() > mark) prev = b.steps_since(mark);
  }
}

}  // namespace hiercoll
