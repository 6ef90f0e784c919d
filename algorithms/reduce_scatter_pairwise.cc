#include "algorithms/allgather.h"  // send_nonempty / recv_nonempty
#include "algorithms/reduce_scatter.h"

namespace hiercoll {

// Contributions arrive from me - 1, me - 2, ..., 0, p - 1, ..., me + 1.  The
// lower ones are folded in front of the result as they come; the higher
// ones, arriving from the top down, are folded in front of a second
// accumulator that is appended at the end, so the result is in rank order.
void reduce_scatter_pairwise_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf in, Span out) {
  const int p = g.size, me = g.me;
  b.copy(L.span(in, me), out);
  if (p == 1) return;
  const Span high = b.tmp(out.n);
  const Span got[2] = {b.tmp(out.n), b.tmp(out.n)};  // alternate so receives overlap reductions
  bool have_high = false;
  for (int i = 1; i < p; ++i) {
    const int to = (me + i) % p, from = (me - i + p) % p;
    send_nonempty(b, g.peer(to), L.span(in, to));
    if (from > me && !have_high) {
      recv_nonempty(b, g.peer(from), high);
      have_high = true;
      continue;
    }
    recv_nonempty(b, g.peer(from), got[i % 2]);
    b.reduce(got[i % 2], from < me ? out : high, /*src_first=*/true);
  }
  if (have_high) b.reduce(high, out, /*src_first=*/false);
}

// Pairwise exchange (Thakur et al. §4.4).  In place the result area
// Recv[0, counts[rank]) holds other ranks' input blocks, so the result is
// built in scratch and copied there at the end.
void build_reduce_scatter_pairwise(const CollArgs& a, ScheduleBuilder& b) {
  const Group g{a.rank, a.size, nullptr};
  const Blocks L = blocks_of_sizes(a.counts);
  const Span result{Buf::kRecv, 0, a.counts[a.rank]};
  const Span out = a.send_alias >= 0 ? b.tmp(result.n) : result;
  reduce_scatter_pairwise_blocks(b, g, L, Buf::kSend, out);
  if (out.buf != result.buf) b.copy(out, result);
}

}  // namespace hiercoll
