#include "algorithms/bcast.h"
#include "algorithms/trees.h"

namespace hiercoll {

// Two-tree broadcast (two-tree paper, Sect. 2 and 2.1): rank i plays
// (i - root - 1) mod p, so the root is p-1 above the two trees over 0..p-2;
// each tree pipelines half of the data, blocks timed by the edge colouring
// so that each rank sends and receives at most once per step.
void build_bcast_twotree(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size;
  const std::shared_ptr<const TwoTree> tt = cached_two_tree(p - 1);
  TreePipeline pl;
  pl.p = p;
  pl.shift = a.root + 1;
  pl.seg = pipeline_segment(a);
  const int v = (a.rank - a.root - 1 + 2 * p) % p;
  int64_t off[2], n[2];
  two_tree_halves(a.count, off, n);
  for (int t = 0; t < 2; ++t)
    if (n[t] > 0) pl.parts.push_back({local_two_tree(*tt, t, v, /*virtual_root=*/true), off[t], n[t]});
  tree_bcast(pl, b);
}

}  // namespace hiercoll
