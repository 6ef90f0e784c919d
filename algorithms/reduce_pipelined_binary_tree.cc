#include "algorithms/reduce.h"
#include "algorithms/trees.h"

namespace hiercoll {

// The broadcast schedule run backwards: a node receives block k's partial
// results of its lower and upper subtrees and sends (lower) op (own) op
// (upper) to its parent; in-order trees make that rank order.  Leaves send
// their input as is; only the parentless node writes Recv.
std::vector<std::vector<Span>> tree_reduce(const TreePipeline& pl, Buf result_buf, ScheduleBuilder& b) {
  const size_t np = pl.parts.size();
  std::vector<std::vector<Span>> from_lower(np), from_upper(np), result(np);
  auto list = [&](std::vector<PipeEvent>* ev, uint8_t part, int64_t nb) {
    const LocalTree& t = pl.parts[part].tree;
    from_lower[part].resize(nb);
    from_upper[part].resize(nb);
    if (t.node.parent < 0) result[part].resize(nb);
    add_up_events(ev, t, nb, part);
  };
  auto step = [&](const PipeEvent& e, const TreePart& part, SendChain& chain) {
    const TreeNode& nd = part.tree.node;
    const Span mine = pl.block(part, Buf::kSend, e.block);
    if (e.what == kUpFromLower) {
      from_lower[e.part][e.block] = recv_partial(b, pl.real(nd.lower), mine.n);
      return;
    }
    if (e.what == kUpFromUpper) {
      from_upper[e.part][e.block] = recv_partial(b, pl.real(nd.upper), mine.n);
      return;
    }
    const bool root = nd.parent < 0;
    Span acc = mine;
    if (root || !nd.leaf()) {
      acc = root && result_buf == Buf::kRecv ? pl.block(part, Buf::kRecv, e.block) : b.tmp(mine.n);
      b.copy(mine, acc);  // a no-op at an in-place root
      if (nd.lower >= 0) b.reduce(from_lower[e.part][e.block], acc, /*src_first=*/true);
      if (nd.upper >= 0) b.reduce(from_upper[e.part][e.block], acc, /*src_first=*/false);
    }
    if (root) result[e.part][e.block] = acc;
    else chain.send(b, pl.real(nd.parent), acc);
  };
  walk_tree_pipeline(pl, list, step);
  return result;
}

// Pipelined binary tree reduce (two-tree paper, Sect. 2 and 2.2): the
// in-order tree rooted at the root, so rank order holds for any root.
void build_reduce_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b) {
  TreePipeline pl;
  pl.p = a.size;
  pl.seg = pipeline_segment(a);
  pl.parts.push_back({local_rooted_tree(a.size, a.root, a.rank), 0, a.count});
  tree_reduce(pl, Buf::kRecv, b);
}

}  // namespace hiercoll
