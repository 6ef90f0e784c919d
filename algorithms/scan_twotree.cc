#include "algorithms/scan.h"
#include "algorithms/trees.h"

namespace hiercoll {

namespace {

// Two-tree scan (two-tree paper, Sect. 2.3, Theorem 2): the two in-order
// trees over all ranks (no virtual root), each running the up and down
// phases of tree_scan on half of the data at the same time.
void build_twotree(const CollArgs& a, bool exclusive, ScheduleBuilder& b) {
  const std::shared_ptr<const TwoTree> tt = cached_two_tree(a.size);
  TreePipeline pl;
  pl.p = a.size;
  pl.seg = pipeline_segment(a);
  int64_t off[2], n[2];
  two_tree_halves(a.count, off, n);
  for (int t = 0; t < 2; ++t)
    if (n[t] > 0) pl.parts.push_back({local_two_tree(*tt, t, a.rank, /*virtual_root=*/false), off[t], n[t]});
  tree_scan(pl, exclusive, b);
}

}  // namespace

void build_scan_twotree(const CollArgs& a, ScheduleBuilder& b) { build_twotree(a, false, b); }
void build_exscan_twotree(const CollArgs& a, ScheduleBuilder& b) { build_twotree(a, true, b); }

}  // namespace hiercoll
