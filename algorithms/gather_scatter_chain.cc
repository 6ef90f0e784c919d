// Chain scatter and gather (Vadhiyar, Fagg, Dongarra §2.2): relative rank v
// receives from v-1 and sends to v+1; the blocks of the ranks past v travel
// down (scatter) or up (gather) the chain in segments of seg_units blocks,
// so the chain is a pipeline.
#include "algorithms/block_tree.h"
#include "algorithms/gather_scatter.h"

namespace hiercoll {

namespace {

// Virtual 0 is the root; v's subtree is [v, p).
BlockTree chain_tree(const CollArgs& a) {
  const int p = a.size;
  return block_tree(a, /*shift=*/a.root, /*root=*/0, [p](int v) { return local_chain(p, v).node; });
}

}  // namespace

void build_scatter_chain(const CollArgs& a, ScheduleBuilder& b) { tree_scatter_blocks(a, chain_tree(a), b); }
void build_gather_chain(const CollArgs& a, ScheduleBuilder& b) { tree_gather_blocks(a, chain_tree(a), b); }

}  // namespace hiercoll
