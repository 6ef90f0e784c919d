// Pipelined binary tree scan and exscan (two-tree paper, Sect. 2.3, one
// tree): tree_scan (algorithms/tree_scan.cc) along the balanced in-order
// tree over all ranks.
#include "algorithms/scan.h"
#include "algorithms/trees.h"

namespace hiercoll {

void build_scan_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b) {
  tree_scan_along(a, local_rooted_tree(a.size, inorder_root(0, a.size), a.rank), false, b);
}
void build_exscan_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b) {
  tree_scan_along(a, local_rooted_tree(a.size, inorder_root(0, a.size), a.rank), true, b);
}

}  // namespace hiercoll
