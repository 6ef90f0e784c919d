#include "hier/node_blocks.h"

#include "algorithms/call_blocks.h"

namespace hiercoll {

bool packs_in_place(const Layout& L, const Blocks& U) { return L.consecutive && adjacent_in_order(U); }

NodeBlocks node_order(const Layout& L, const Blocks& U, Buf buf, int64_t start) {
  NodeBlocks out{U, Blocks{}, Span{}, buf};
  int64_t pos = start;
  for (int k = 0; k < L.num_nodes; ++k) {
    out.nodes.off.push_back(pos);
    for (int r : L.node_ranks[k]) {
      out.ranks.off[r] = pos;
      pos += U.n[r];
    }
    out.nodes.n.push_back(pos - out.nodes.off.back());
  }
  out.all = Span{buf, start, pos - start};
  return out;
}

namespace {

void shift(NodeBlocks* nb, int64_t by) {
  for (int64_t& off : nb->ranks.off) off += by;
  for (int64_t& off : nb->nodes.off) off += by;
  nb->all.off += by;
}

}  // namespace

NodeBlocks node_part(ScheduleBuilder& b, const Layout& L, const Blocks& U, int k) {
  NodeBlocks out = node_order(L, U, Buf::kTmp, 0);
  const Span part = b.tmp(out.nodes.n[k]);
  shift(&out, part.off - out.nodes.off[k]);
  return out;
}

NodeBlocks pack_by_node(ScheduleBuilder& b, const Layout& L, const Blocks& U, Buf user) {
  if (packs_in_place(L, U)) return node_order(L, U, user, U.size() > 0 ? U.off[0] : 0);
  NodeBlocks out = node_order(L, U, Buf::kTmp, 0);
  shift(&out, b.tmp(out.all.n).off);
  return out;
}

}  // namespace hiercoll
