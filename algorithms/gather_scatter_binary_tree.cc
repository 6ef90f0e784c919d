// Binary-tree scatter and gather (Vadhiyar, Fagg, Dongarra §2.3): every
// rank but the root has one parent and up to two children, about log2 p
// levels.  The tree is the in-order one rooted at the root (algorithms/trees.h),
// so every subtree is a run of consecutive ranks and its blocks are one
// span of the root's buffer; segments of seg_units blocks pipeline the
// levels.
#include "algorithms/block_tree.h"
#include "algorithms/gather_scatter.h"

namespace hiercoll {

namespace {

BlockTree binary_tree(const CollArgs& a) {
  const int p = a.size, root = a.root;
  return block_tree(a, /*shift=*/0, root, [p, root](int v) { return rooted_node(0, p, root, v); });
}

}  // namespace

void build_scatter_binary_tree(const CollArgs& a, ScheduleBuilder& b) { tree_scatter_blocks(a, binary_tree(a), b); }
void build_gather_binary_tree(const CollArgs& a, ScheduleBuilder& b) { tree_gather_blocks(a, binary_tree(a), b); }

}  // namespace hiercoll
