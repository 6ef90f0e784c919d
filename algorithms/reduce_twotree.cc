#include "algorithms/reduce.h"
#include "algorithms/reduce_collector.h"
#include "algorithms/trees.h"

namespace hiercoll {

// Two-tree reduce (two-tree paper, Sect. 2.2, Theorem 1): the two-tree
// broadcast reversed, half of the data up each tree to the collector p-1 of
// the renumbering i -> (i - collector - 1) mod p (algorithms/reduce_collector.h:
// the root, or rank p-1 for a non-commutative operation and 0 < root < p-1,
// which Theorem 1 leaves out).
void build_reduce_twotree(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size;
  const int collector = reduce_collector(a);
  const std::shared_ptr<const TwoTree> tt = cached_two_tree(p - 1);
  TreePipeline pl;
  pl.p = p;
  pl.shift = collector + 1;
  pl.seg = pipeline_segment(a);
  const int v = collector_virtual(a, collector);
  int64_t off[2], n[2];
  two_tree_halves(a.count, off, n);
  for (int t = 0; t < 2; ++t) {
    if (n[t] == 0) continue;
    LocalTree lt = local_two_tree(*tt, t, v, /*virtual_root=*/true);
    collector_zero_own_first(a, collector, &lt);
    pl.parts.push_back({lt, off[t], n[t]});
  }
  forward_to_root(a, collector, pl, tree_reduce(pl, collector_result_buf(a, collector), b), b);
}

}  // namespace hiercoll
