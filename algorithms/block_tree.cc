#include "algorithms/block_tree.h"

#include <algorithm>
#include <utility>

namespace hiercoll {

namespace {

// One rank's place in a BlockTree and how it addresses blocks.
struct Place {
  const BlockTree& t;
  int v;         // my virtual rank
  TreeNode node;
  Buf buf;       // where blocks [node.lo, node.hi) live
  int64_t base;  // block x is at real(x) at the root, else at base + x - lo

  // Calls f(x0, x1) for the grid's cells of [lo, hi), in ascending order.
  template <typename F>
  void for_each_cell(int lo, int hi, F f) const {
    const int wrap = t.p - t.shift;  // virtual rank of real rank 0
    for (int x = lo; x < hi;) {
      int end = hi;
      if (t.seg > 0) end = static_cast<int>(std::min<int64_t>(end, (x / t.seg + 1) * t.seg));
      if (x < wrap) end = std::min(end, wrap);
      f(x, end);
      x = end;
    }
  }
  Span at(int x0, int x1) const {
    if (v == t.root) return Span{buf, t.real(x0), x1 - x0};
    return Span{buf, base + x0 - node.lo, x1 - x0};
  }
  bool leaf() const { return v != t.root && node.hi - node.lo == 1; }
};

Place make_place(const CollArgs& a, const BlockTree& t, Buf root_buf, ScheduleBuilder& b) {
  const int v = (a.rank - t.shift + t.p) % t.p;
  Place pl{t, v, t.node(v), root_buf, 0};
  if (v != t.root && !pl.leaf()) {
    pl.buf = Buf::kTmp;
    pl.base = b.tmp(pl.node.hi - pl.node.lo).off;
  }
  return pl;
}

// The children's ranges, clipped to the cell [x0, x1).
template <typename F>
void for_each_child_piece(const Place& me, int x0, int x1, F f) {
  for (int c : {me.node.lower, me.node.upper}) {
    if (c < 0) continue;
    const TreeNode cn = me.t.node(c);
    const int lo = std::max(x0, cn.lo), hi = std::min(x1, cn.hi);
    if (lo < hi) f(me.t.real(c), me.at(lo, hi));
  }
}

}  // namespace

BlockTree block_tree(const CollArgs& a, int shift, int root, std::function<TreeNode(int)> node) {
  BlockTree t;
  t.p = a.size;
  t.shift = shift;
  t.seg = a.seg_units;
  t.root = root;
  t.node = std::move(node);
  return t;
}

void tree_scatter_blocks(const CollArgs& a, const BlockTree& t, ScheduleBuilder& b) {
  const Span recv{Buf::kRecv, 0, 1};
  const Place me = make_place(a, t, Buf::kSend, b);
  if (me.leaf()) {
    b.recv(t.real(me.node.parent), recv);
    return;
  }
  me.for_each_cell(me.node.lo, me.node.hi, [&](int x0, int x1) {
    if (me.v != t.root) b.recv(t.real(me.node.parent), me.at(x0, x1));
    for_each_child_piece(me, x0, x1, [&](int peer, Span s) { b.send(peer, s); });
  });
  b.copy(me.at(me.v, me.v + 1), recv);  // in place, the root's is a copy onto itself
}

void tree_gather_blocks(const CollArgs& a, const BlockTree& t, ScheduleBuilder& b) {
  const Span send{Buf::kSend, 0, 1};
  const Place me = make_place(a, t, Buf::kRecv, b);
  if (me.leaf()) {
    b.send(t.real(me.node.parent), send);
    return;
  }
  const Span mine = me.at(me.v, me.v + 1);
  if (me.v != t.root || a.send_alias < 0) b.copy(send, mine);
  me.for_each_cell(me.node.lo, me.node.hi, [&](int x0, int x1) {
    for_each_child_piece(me, x0, x1, [&](int peer, Span s) { b.recv(peer, s); });
    if (me.v != t.root) b.send(t.real(me.node.parent), me.at(x0, x1));
  });
}

}  // namespace hiercoll
