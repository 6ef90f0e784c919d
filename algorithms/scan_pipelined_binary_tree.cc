// Pipelined binary tree scan and exscan (two-tree paper, Sect. 2.3, one
// tree): tree_scan (algorithms/tree_scan.cc) along the balanced in-order
// tree over all ranks.
#include "algorithms/scan.h"
#include "algorithms/trees.h"

namespace hiercoll {

namespace {

void pipelined_binary_tree(const CollArgs& a, bool exclusive, ScheduleBuilder& b) {
  TreePipeline pl;
  pl.p = a.size;
  pl.seg = pipeline_segment(a);
  pl.parts.push_back({local_rooted_tree(a.size, inorder_root(0, a.size), a.rank), 0, a.count});
  tree_scan(pl, exclusive, b);
}

}  // namespace

void build_scan_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b) { pipelined_binary_tree(a, false, b); }
void build_exscan_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b) { pipelined_binary_tree(a, true, b); }

}  // namespace hiercoll
