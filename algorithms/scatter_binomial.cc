// Binomial-tree scatter (Thakur et al. §4.2: the scatter half of Van de
// Geijn's broadcast; MPICH's MPI_Scatter): every rank receives its subtree
// from its parent, then sends each child its subtree, largest first,
// ceil(lg p) rounds.
#include "algorithms/call_blocks.h"
#include "algorithms/gather_scatter.h"

namespace hiercoll {

using binomial_detail::children;
using binomial_detail::move_subtree;
using binomial_detail::same_span;
using binomial_detail::Tree;

namespace {

template <class BlockMap>
void scatter_walk(ScheduleBuilder& b, const Group& g, int root, const BlockMap& L, Buf buf, Span own) {
  const Tree t(g.size, root);
  const int v = t.rel(g.me);
  if (v != 0) {
    const int parent = g.peer(t.real(t.parent(v)));
    // A leaf's subtree is its own block: receive it where it belongs.
    if (t.subtree_len(v) == 1) {
      if (own.n > 0) b.recv(parent, own);
      return;
    }
    move_subtree<false>(b, t, v, L, buf, parent);
  }
  const std::vector<int> kids = children(t, v);
  for (auto c = kids.rbegin(); c != kids.rend(); ++c) move_subtree<true>(b, t, *c, L, buf, g.peer(t.real(*c)));
  const Span mine = L.span(buf, g.me);
  if (!same_span(own, mine)) b.copy(mine, own);
}

}  // namespace

void binomial_scatter_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf, Span own) {
  scatter_walk(b, g, root, L, buf, own);
}

void binomial_scatter_blocks(ScheduleBuilder& b, const Group& g, int root, const SubtreeBlocks& L, Buf buf, Span own) {
  scatter_walk(b, g, root, L, buf, own);
}

void binomial_scatter_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf) {
  binomial_scatter_blocks(b, g, root, L, buf, L.span(buf, g.me));
}

// Scatter(v): Send holds all blocks at the root only, Recv mine.  The root
// sends straight from Send; non-roots forward through scratch the size of
// their subtree.  (In place, the root's Recv is its block of Send: the
// final copy is then a copy onto itself.)  Scatterv needs every block's
// count on every rank (kAllCounts); blocks that do not lie back to back in
// rank order at the root are packed into scratch first.
void build_scatter_binomial(const CollArgs& a, ScheduleBuilder& b) {
  const Group g{a.rank, a.size, nullptr};
  const std::shared_ptr<const Blocks> blocks = shared_all_blocks(a);
  const Blocks& U = *blocks;
  const Span recv = own_block(a, Buf::kRecv);
  if (a.rank != a.root) {
    binomial_scatter_blocks(b, g, a.root, binomial_subtree_scratch(b, U, g, a.root), Buf::kTmp, recv);
    return;
  }
  if (adjacent_in_order(U)) {
    binomial_scatter_blocks(b, g, a.root, U, Buf::kSend, recv);
    return;
  }
  const Blocks P = packed_in_scratch(b, U);
  for (int j = 0; j < a.size; ++j)
    if (U.n[j] > 0) b.copy(U.span(Buf::kSend, j), P.span(Buf::kTmp, j));
  binomial_scatter_blocks(b, g, a.root, P, Buf::kTmp, recv);
}

}  // namespace hiercoll
