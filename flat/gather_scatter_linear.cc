// Sequential (linear) scatter and gather (Vadhiyar, Fagg, Dongarra §2.1):
// the root sends every other rank its block, or receives it, in turn
// (root+1, root+2, ...), p-1 messages with no latency chained.  The same
// generators serve scatterv and gatherv (flat/call_blocks.h); empty
// blocks are no message.
#include "flat/call_blocks.h"
#include "flat/gather_scatter.h"

namespace hiercoll {

void build_scatter_linear(const CollArgs& a, ScheduleBuilder& b) {
  const Span recv = own_block(a, Buf::kRecv);
  if (a.rank != a.root) {
    recv_nonempty(b, a.root, recv);
    return;
  }
  const Blocks L = all_blocks(a);
  for (int i = 1; i < a.size; ++i) {
    const int r = (a.root + i) % a.size;
    send_nonempty(b, r, L.span(Buf::kSend, r));
  }
  b.copy(L.span(Buf::kSend, a.root), recv);  // in place, a copy onto itself
}

void build_gather_linear(const CollArgs& a, ScheduleBuilder& b) {
  const Span send = own_block(a, Buf::kSend);
  if (a.rank != a.root) {
    send_nonempty(b, a.root, send);
    return;
  }
  const Blocks L = all_blocks(a);
  if (a.send_alias < 0) b.copy(send, L.span(Buf::kRecv, a.root));
  for (int i = 1; i < a.size; ++i) {
    const int r = (a.root + i) % a.size;
    recv_nonempty(b, r, L.span(Buf::kRecv, r));
  }
}

}  // namespace hiercoll
