// Chain scatter and gather (Vadhiyar, Fagg, Dongarra §2.2): relative rank v
// receives from v-1 and sends to v+1; the blocks of the ranks past v travel
// down (scatter) or up (gather) the chain in segments of seg_units blocks,
// so the chain is a pipeline.
#include "flat/block_tree.h"
#include "flat/gather_scatter.h"

namespace hiercoll {

namespace {

BlockTree chain_tree(const CollArgs& a) {
  BlockTree t;
  t.p = a.size;
  t.shift = a.root;
  t.seg = a.seg_units;
  const int p = a.size;
  t.node = [p](int v) { return local_chain(p, v).node; };
  return t;
}

}  // namespace

void build_scatter_chain(const CollArgs& a, ScheduleBuilder& b) { tree_scatter_blocks(a, chain_tree(a), b); }
void build_gather_chain(const CollArgs& a, ScheduleBuilder& b) { tree_gather_blocks(a, chain_tree(a), b); }

}  // namespace hiercoll
