// Binomial-tree gather (Thakur et al. §4.5: the binomial tree gather that
// ends Rabenseifner's reduce; MPICH's MPI_Gather): every rank receives its
// children's subtrees, smallest first, then sends its whole subtree to its
// parent, ceil(lg p) rounds.
#include "flat/gather_scatter.h"

namespace hiercoll {

using binomial_detail::piece_span;
using binomial_detail::same_span;
using binomial_detail::Tree;

void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf, Span own) {
  const Tree t(g.size, root);
  const int v = t.rel(g.me);
  // A leaf's subtree is its own block: send it from where it is.
  if (v != 0 && t.subtree_len(v) == 1) {
    if (own.n > 0) b.send(g.peer(t.real(t.parent(v))), own);
    return;
  }
  const Span mine = L.span(buf, g.me);
  if (!same_span(own, mine)) b.copy(own, mine);
  for (int m = 1; m < t.child_bound(v) && v + m < g.size; m <<= 1) {
    const int child = g.peer(t.real(v + m));
    t.for_each_piece(v + m, [&](int lo, int hi) {
      const Span s = piece_span(L, buf, lo, hi);
      if (s.n > 0) b.recv(child, s);
    });
  }
  if (v == 0) return;
  const int parent = g.peer(t.real(t.parent(v)));
  t.for_each_piece(v, [&](int lo, int hi) {
    const Span s = piece_span(L, buf, lo, hi);
    if (s.n > 0) b.send(parent, s);
  });
}

void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf) {
  binomial_gather_blocks(b, g, root, L, buf, L.span(buf, g.me));
}

Blocks binomial_subtree_scratch(ScheduleBuilder& b, const Blocks& L, const Group& g, int root) {
  const Tree t(g.size, root);
  const int v = t.rel(g.me);
  Blocks out = L;
  if (v != 0 && t.subtree_len(v) == 1) return out;
  int64_t units = 0;
  t.for_each_piece(v, [&](int lo, int hi) {
    for (int i = lo; i < hi; ++i) {
      out.off[i] = units;
      units += L.n[i];
    }
  });
  const Span scratch = b.tmp(units);
  for (int64_t& off : out.off) off += scratch.off;
  return out;
}

// Gather: Send[0,1) mine, Recv[0,p) at the root only.  Non-roots forward
// through scratch the size of their subtree.
void build_gather_binomial(const CollArgs& a, ScheduleBuilder& b) {
  const Group g{a.rank, a.size, nullptr};
  const Blocks L = unit_blocks(a.size);
  const Span send{Buf::kSend, 0, 1};
  if (a.rank == a.root) {
    const Span mine = L.span(Buf::kRecv, a.rank);
    binomial_gather_blocks(b, g, a.root, L, Buf::kRecv, a.send_alias >= 0 ? mine : send);
  } else {
    binomial_gather_blocks(b, g, a.root, binomial_subtree_scratch(b, L, g, a.root), Buf::kTmp, send);
  }
}

}  // namespace hiercoll
