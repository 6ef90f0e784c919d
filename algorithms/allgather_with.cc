#include "algorithms/allgather.h"

namespace hiercoll {

void build_allgather_with(const CollArgs& a, ScheduleBuilder& b, AllgatherBlocksFn fn) {
  const Group g{a.rank, a.size, nullptr};
  const Blocks L = all_blocks(a);
  const Span own = own_block(a, Buf::kSend);
  if (adjacent_in_order(L)) {
    b.copy(own, L.span(Buf::kRecv, a.rank));
    fn(b, g, L, Buf::kRecv);
    return;
  }
  Blocks packed = blocks_of_sizes(L.n);
  const Span t = b.tmp(packed.total());
  for (int64_t& off : packed.off) off += t.off;
  b.copy(a.send_alias >= 0 ? L.span(Buf::kRecv, a.rank) : own, packed.span(Buf::kTmp, a.rank));
  fn(b, g, packed, Buf::kTmp);
  for (int j = 0; j < a.size; ++j)
    if (j != a.rank || a.send_alias < 0) b.copy(packed.span(Buf::kTmp, j), L.span(Buf::kRecv, j));
}

}  // namespace hiercoll
