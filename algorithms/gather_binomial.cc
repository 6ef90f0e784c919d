// Binomial-tree gather (Thakur et al. §4.5: the binomial tree gather that
// ends Rabenseifner's reduce; MPICH's MPI_Gather): every rank receives its
// children's subtrees, smallest first, then sends its whole subtree to its
// parent, ceil(lg p) rounds.
#include "algorithms/call_blocks.h"
#include "algorithms/gather_scatter.h"

namespace hiercoll {

using binomial_detail::children;
using binomial_detail::move_subtree;
using binomial_detail::same_span;
using binomial_detail::Tree;

namespace {

template <class BlockMap>
void gather_walk(ScheduleBuilder& b, const Group& g, int root, const BlockMap& L, Buf buf, Span own) {
  const Tree t(g.size, root);
  const int v = t.rel(g.me);
  // A leaf's subtree is its own block: send it from where it is.
  if (v != 0 && t.subtree_len(v) == 1) {
    if (own.n > 0) b.send(g.peer(t.real(t.parent(v))), own);
    return;
  }
  const Span mine = L.span(buf, g.me);
  if (!same_span(own, mine)) b.copy(own, mine);
  for (int c : children(t, v)) move_subtree<false>(b, t, c, L, buf, g.peer(t.real(c)));
  if (v != 0) move_subtree<true>(b, t, v, L, buf, g.peer(t.real(t.parent(v))));
}

}  // namespace

void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf, Span own) {
  gather_walk(b, g, root, L, buf, own);
}

void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const SubtreeBlocks& L, Buf buf, Span own) {
  gather_walk(b, g, root, L, buf, own);
}

void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf) {
  binomial_gather_blocks(b, g, root, L, buf, L.span(buf, g.me));
}

Span SubtreeBlocks::range(Buf buf, int first, int last) const {
  const int k = first >= lo[1] && first < hi[1] ? 1 : 0;
  int64_t off = base[k], n = 0;
  for (int i = lo[k]; i < first; ++i) off += L->n[i];
  for (int i = first; i < last; ++i) n += L->n[i];
  return Span{buf, off, n};
}

SubtreeBlocks binomial_subtree_scratch(ScheduleBuilder& b, const Blocks& L, const Group& g, int root) {
  const Tree t(g.size, root);
  const int v = t.rel(g.me);
  SubtreeBlocks out;
  out.L = &L;
  if (v != 0 && t.subtree_len(v) == 1) return out;
  int64_t units = 0;
  int k = 0;
  t.for_each_piece(v, [&](int lo, int hi) {
    out.lo[k] = lo;
    out.hi[k] = hi;
    out.base[k] = units;
    for (int i = lo; i < hi; ++i) units += L.n[i];
    ++k;
  });
  const Span scratch = b.tmp(units);
  for (int64_t& base : out.base) base += scratch.off;
  return out;
}

Blocks packed_in_scratch(ScheduleBuilder& b, const Blocks& L) {
  Blocks out = blocks_of_sizes(L.n);
  const int64_t base = b.tmp(out.total()).off;
  for (int64_t& off : out.off) off += base;
  return out;
}

// Gather(v): Send holds mine, Recv all blocks at the root only.  Non-roots
// forward through scratch the size of their subtree.  Gatherv needs every
// block's count on every rank (kAllCounts: the runtime sends the root's
// first); blocks that do not lie back to back in rank order at the root
// are gathered packed in scratch and then put in place.
void build_gather_binomial(const CollArgs& a, ScheduleBuilder& b) {
  const Group g{a.rank, a.size, nullptr};
  const std::shared_ptr<const Blocks> blocks = shared_all_blocks(a);
  const Blocks& U = *blocks;
  const Span send = own_block(a, Buf::kSend);
  if (a.rank != a.root) {
    binomial_gather_blocks(b, g, a.root, binomial_subtree_scratch(b, U, g, a.root), Buf::kTmp, send);
    return;
  }
  const Span own = a.send_alias >= 0 ? U.span(Buf::kRecv, a.rank) : send;
  if (adjacent_in_order(U)) {
    binomial_gather_blocks(b, g, a.root, U, Buf::kRecv, own);
    return;
  }
  const Blocks P = packed_in_scratch(b, U);
  binomial_gather_blocks(b, g, a.root, P, Buf::kTmp, own);
  for (int j = 0; j < a.size; ++j)
    if (U.n[j] > 0 && (j != a.rank || a.send_alias < 0)) b.copy(P.span(Buf::kTmp, j), U.span(Buf::kRecv, j));
}

}  // namespace hiercoll
