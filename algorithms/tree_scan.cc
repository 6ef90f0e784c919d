#include "algorithms/scan.h"
#include "algorithms/trees.h"

namespace hiercoll {

// Parallel prefix on in-order trees (two-tree paper, Sect. 2.3).  Node v
// covers [lo, hi) with lower subtree [lo, v) and upper subtree (v, hi).
//  Up phase:   A = S(lower) op m_v and U = A op S(upper); U goes to the
//              parent (the reduce schedule).
//  Down phase: v receives P = m_0 op ... op m_{lo-1} from its parent when
//              lo > 0, passes P to its lower child and P op A (the prefix
//              through v) to its upper child (the broadcast schedule,
//              shifted one step after the up phase).
// Scan:   Recv = P op A.  Exscan: Recv = P op S(lower) (rank 0 untouched).
namespace {

enum : uint8_t { kDown = kUpEvents, kToLower, kToUpper };

// What one node keeps of one block.
struct BlockSpans {
  Span sl, sr;  // partial results of the lower and upper subtrees
  Span p;       // prefix from the parent
  Span x;       // exscan: A, then P op A
};

// Up phase: A = S(lower) op m_v (scan: in Recv), U = A op S(upper) to the
// parent.
void up_combine(ScheduleBuilder& b, const TreeNode& nd, Span mine, Span out, bool exclusive, BlockSpans& s,
                int parent, SendChain& chain) {
  Span a = mine;  // exscan leaf: A = m_v, read in place
  if (!exclusive) {
    b.copy(mine, out);  // scan keeps A in Recv (a no-op in place)
    a = out;
  } else if (!nd.leaf()) {
    s.x = b.tmp(mine.n);
    b.copy(mine, s.x);
    a = s.x;
  }
  if (nd.lower >= 0) b.reduce(s.sl, a, /*src_first=*/true);
  Span u = a;
  if (nd.upper >= 0) {
    b.reduce(a, s.sr, /*src_first=*/true);
    u = s.sr;
  }
  if (nd.parent >= 0) chain.send(b, parent, u);
}

// Down phase: P from the parent (lo > 0); scan: Recv = P op A; exscan:
// Recv = P op S(lower), and x = P op A for the upper child.
void down(ScheduleBuilder& b, const TreeNode& nd, Span out, bool exclusive, BlockSpans& s, int parent, int64_t n) {
  const bool has_prefix = nd.lo > 0;
  if (has_prefix) {
    s.p = b.tmp(n);
    b.recv(parent, s.p);
  }
  if (!exclusive) {
    if (has_prefix) b.reduce(s.p, out, /*src_first=*/true);
  } else if (has_prefix) {
    b.copy(s.p, out);
    if (nd.lower >= 0) b.reduce(s.sl, out, /*src_first=*/false);
    if (nd.upper >= 0) b.reduce(s.p, s.x, /*src_first=*/true);
  } else if (nd.lower >= 0) {
    b.copy(s.sl, out);
  }
}

}  // namespace

void tree_scan(const TreePipeline& pl, bool exclusive, ScheduleBuilder& b) {
  std::vector<std::vector<BlockSpans>> spans(pl.parts.size());
  auto list = [&](std::vector<PipeEvent>* ev, uint8_t part, int64_t nb) {
    const LocalTree& t = pl.parts[part].tree;
    spans[part].resize(nb);
    add_up_events(ev, t, nb, part);
    add_events(ev, nb, t.arrival + 1, 0, 1, part, kDown);
    if (t.node.lower >= 0 && t.node.lo > 0) add_events(ev, nb, t.lower_arrival + 1, 1, 1, part, kToLower);
    if (t.node.upper >= 0) add_events(ev, nb, t.upper_arrival + 1, 1, 1, part, kToUpper);
  };
  auto step = [&](const PipeEvent& e, const TreePart& part, SendChain& chain) {
    const TreeNode& nd = part.tree.node;
    const Span mine = pl.block(part, Buf::kSend, e.block);
    const Span out = pl.block(part, Buf::kRecv, e.block);
    BlockSpans& s = spans[e.part][e.block];
    const int parent = nd.parent >= 0 ? pl.real(nd.parent) : -1;
    switch (e.what) {
      case kUpFromLower: s.sl = recv_partial(b, pl.real(nd.lower), mine.n); break;
      case kUpFromUpper: s.sr = recv_partial(b, pl.real(nd.upper), mine.n); break;
      case kUpCombine: up_combine(b, nd, mine, out, exclusive, s, parent, chain); break;
      case kDown: down(b, nd, out, exclusive, s, parent, mine.n); break;
      case kToLower: chain.send(b, pl.real(nd.lower), s.p); break;
      default: chain.send(b, pl.real(nd.upper), exclusive ? s.x : out); break;
    }
  };
  walk_tree_pipeline(pl, list, step);
}

void tree_scan_along(const CollArgs& a, const LocalTree& tree, bool exclusive, ScheduleBuilder& b) {
  TreePipeline pl;
  pl.p = a.size;
  pl.seg = pipeline_segment(a);
  pl.parts.push_back({tree, 0, a.count});
  tree_scan(pl, exclusive, b);
}

}  // namespace hiercoll
