// Sequential (linear) scatter and gather (Vadhiyar, Fagg, Dongarra §2.1):
// the root sends every other rank its block, or receives it, in turn
// (root+1, root+2, ...), p-1 messages with no latency chained.  The same
// generators serve scatterv and gatherv (algorithms/call_blocks.h); empty
// blocks are no message.
//
// Segmented (`linear_segmented`): a block is the unit of gather and
// scatter, so a segment of seg_units cannot cut one; it is seg_units
// blocks, the root's messages to (from) seg_units consecutive ranks, and a
// segment's messages start once the previous segment's have completed, so
// at most one segment is in flight (the root's memory and link see a
// bounded burst; Open MPI's linear_nb scatter bounds its requests alike).
#include "algorithms/call_blocks.h"
#include "algorithms/gather_scatter.h"

namespace hiercoll {

namespace {

// The root's messages, one per other rank in turn, in windows of `window`
// ranks (0: one window), each window's waiting for the previous one's.
// message(peer, deps) adds one and returns its step (-1: none).
template <typename Message>
void root_in_windows(const CollArgs& a, int64_t window, Message message) {
  Deps previous, current;
  for (int i = 1; i < a.size; ++i) {
    if (window > 0 && i > 1 && (i - 1) % window == 0) {
      previous.swap(current);
      current.clear();
    }
    current.push_back(message((a.root + i) % a.size, previous));
  }
}

void scatter_linear(const CollArgs& a, int64_t window, ScheduleBuilder& b) {
  const Span recv = own_block(a, Buf::kRecv);
  if (a.rank != a.root) {
    recv_nonempty(b, a.root, recv);
    return;
  }
  const Blocks L = all_blocks(a);
  root_in_windows(a, window, [&](int r, const Deps& deps) { return send_nonempty(b, r, L.span(Buf::kSend, r), deps); });
  b.copy(L.span(Buf::kSend, a.root), recv);  // in place, a copy onto itself
}

void gather_linear(const CollArgs& a, int64_t window, ScheduleBuilder& b) {
  const Span send = own_block(a, Buf::kSend);
  if (a.rank != a.root) {
    send_nonempty(b, a.root, send);
    return;
  }
  const Blocks L = all_blocks(a);
  if (a.send_alias < 0) b.copy(send, L.span(Buf::kRecv, a.root));
  root_in_windows(a, window, [&](int r, const Deps& deps) { return recv_nonempty(b, r, L.span(Buf::kRecv, r), deps); });
}

}  // namespace

void build_scatter_linear(const CollArgs& a, ScheduleBuilder& b) { scatter_linear(a, 0, b); }
void build_gather_linear(const CollArgs& a, ScheduleBuilder& b) { gather_linear(a, 0, b); }
void build_scatter_linear_segmented(const CollArgs& a, ScheduleBuilder& b) { scatter_linear(a, a.seg_units, b); }
void build_gather_linear_segmented(const CollArgs& a, ScheduleBuilder& b) { gather_linear(a, a.seg_units, b); }

}  // namespace hiercoll
