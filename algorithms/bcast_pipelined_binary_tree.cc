#include "algorithms/bcast.h"
#include "algorithms/trees.h"

namespace hiercoll {

// Blocks flow down each tree: a node receives block k from its parent and
// passes it to its lower child, then its upper child, while block k+1 is
// already coming in.
void tree_bcast(const TreePipeline& pl, ScheduleBuilder& b) {
  enum : uint8_t { kFromParent, kToLower, kToUpper };
  auto list = [&](std::vector<PipeEvent>* ev, uint8_t part, int64_t nb) {
    const LocalTree& t = pl.parts[part].tree;
    if (t.node.parent >= 0) add_events(ev, nb, t.arrival, 0, 0, part, kFromParent);
    if (t.node.lower >= 0) add_events(ev, nb, t.lower_arrival, 1, 0, part, kToLower);
    if (t.node.upper >= 0) add_events(ev, nb, t.upper_arrival, 1, 0, part, kToUpper);
  };
  auto step = [&](const PipeEvent& e, const TreePart& part, SendChain& chain) {
    const TreeNode& nd = part.tree.node;
    const Span data = pl.block(part, Buf::kRecv, e.block);
    switch (e.what) {
      case kFromParent: b.recv(pl.real(nd.parent), data); break;
      case kToLower: chain.send(b, pl.real(nd.lower), data); break;
      default: chain.send(b, pl.real(nd.upper), data); break;
    }
  };
  walk_tree_pipeline(pl, list, step);
}

// Pipelined binary tree (two-tree paper, Sect. 2): the in-order tree rooted
// at the root (rooted_node), the whole message in segments.
void build_bcast_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b) {
  TreePipeline pl;
  pl.p = a.size;
  pl.seg = pipeline_segment(a);
  pl.parts.push_back({local_rooted_tree(a.size, a.root, a.rank), 0, a.count});
  tree_bcast(pl, b);
}

}  // namespace hiercoll
