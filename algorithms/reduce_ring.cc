// Ring reduce (Thakur et al. §5.3): the pairwise-exchange reduce-scatter of
// the vector cut into p blocks (§4.4, as the ring allreduce; rank order
// kept), then every rank sends its block of the result straight to the
// root, which takes them in turn (root+1, root+2, ...).
#include "algorithms/reduce.h"
#include "algorithms/reduce_scatter.h"

namespace hiercoll {

void build_reduce_ring(const CollArgs& a, ScheduleBuilder& b) {
  const Group g{a.rank, a.size, nullptr};
  const Blocks L = even_blocks(a.count, a.size);
  if (a.rank != a.root) {
    const Span out = b.tmp(L.n[a.rank]);
    reduce_scatter_pairwise_blocks(b, g, L, Buf::kSend, out);
    send_nonempty(b, a.root, out);
    return;
  }
  // In place the root's input is Recv; its own block is the only input
  // block the result overwrites, which the primitive allows, and the
  // others' results land on input blocks already sent (the builder orders
  // each receive after the send it overwrites).
  reduce_scatter_pairwise_blocks(b, g, L, Buf::kSend, L.span(Buf::kRecv, a.rank));
  for (int i = 1; i < a.size; ++i) {
    const int r = (a.root + i) % a.size;
    recv_nonempty(b, r, L.span(Buf::kRecv, r));
  }
}

}  // namespace hiercoll
