#include <algorithm>
#include <utility>

#include "flat/reduce.h"
#include "flat/trees.h"

namespace hiercoll {

// Two-tree reduce (two-tree paper, Sect. 2.2, Theorem 1): the two-tree
// broadcast reversed, half of the data up each tree to the collector p-1 of
// the renumbering i -> (i - collector - 1) mod p.  The trees cover the other
// ranks in rank order when the collector is rank 0 or p-1, or the operation
// commutes; then the collector is the root.  Otherwise (a non-commutative
// operation and 0 < root < p-1, which Theorem 1 leaves out) rank p-1
// collects and passes each finished block on to the root.
void build_reduce_twotree(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size;
  const int collector = a.commutative || a.root == 0 || a.root == p - 1 ? a.root : p - 1;
  const std::shared_ptr<const TwoTree> tt = cached_two_tree(p - 1);
  TreePipeline pl;
  pl.p = p;
  pl.shift = collector + 1;
  pl.seg = pipeline_segment(a);
  const int v = (a.rank - collector - 1 + 2 * p) % p;
  int64_t off[2], n[2];
  two_tree_halves(a.count, off, n);
  for (int t = 0; t < 2; ++t) {
    if (n[t] == 0) continue;
    LocalTree lt = local_two_tree(*tt, t, v, /*virtual_root=*/true);
    if (v == p - 1 && collector == 0) {
      // Rank 0 precedes the ranks of the trees: its own data goes first.
      std::swap(lt.node.lower, lt.node.upper);
      std::swap(lt.lower_arrival, lt.upper_arrival);
    }
    pl.parts.push_back({lt, off[t], n[t]});
  }
  const Buf result_buf = collector == a.root ? Buf::kRecv : Buf::kTmp;
  const std::vector<std::vector<Span>> result = tree_reduce(pl, result_buf, b);
  if (collector == a.root || (a.rank != collector && a.rank != a.root)) return;
  SendChain chain;
  int64_t most = 0;
  for (const TreePart& part : pl.parts) most = std::max(most, pl.blocks(part));
  for (int64_t k = 0; k < most; ++k)
    for (size_t i = 0; i < pl.parts.size(); ++i) {
      if (k >= pl.blocks(pl.parts[i])) continue;
      if (a.rank == collector) chain.send(b, a.root, result[i][k]);
      else b.recv(collector, pl.block(pl.parts[i], Buf::kRecv, k));
    }
}

}  // namespace hiercoll
