// Sequential (linear) scatter and gather (Vadhiyar, Fagg, Dongarra §2.1):
// the root sends every other rank its block, or receives it, in turn
// (root+1, root+2, ...), p-1 messages with no latency chained.
#include "flat/gather_scatter.h"

namespace hiercoll {

void build_scatter_linear(const CollArgs& a, ScheduleBuilder& b) {
  const Span recv{Buf::kRecv, 0, 1};
  if (a.rank != a.root) {
    b.recv(a.root, recv);
    return;
  }
  for (int i = 1; i < a.size; ++i) {
    const int r = (a.root + i) % a.size;
    b.send(r, Span{Buf::kSend, r, 1});
  }
  b.copy(Span{Buf::kSend, a.root, 1}, recv);  // in place, a copy onto itself
}

void build_gather_linear(const CollArgs& a, ScheduleBuilder& b) {
  const Span send{Buf::kSend, 0, 1};
  if (a.rank != a.root) {
    b.send(a.root, send);
    return;
  }
  if (a.send_alias < 0) b.copy(send, Span{Buf::kRecv, a.root, 1});
  for (int i = 1; i < a.size; ++i) {
    const int r = (a.root + i) % a.size;
    b.recv(r, Span{Buf::kRecv, r, 1});
  }
}

}  // namespace hiercoll
