#include "algorithms/trees.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <tuple>
#include <utility>

namespace hiercoll {

namespace {

// The largest power of two <= n (n >= 1).
int64_t floor_pow2(int64_t n) {
  int64_t q = 1;
  while (q * 2 <= n) q *= 2;
  return q;
}

// A node of the balanced in-order tree over positions 1..n (0 = none).  In
// the complete tree, position y with lowest set bit 2^k has height k, covers
// [y - 2^k + 1, y + 2^k - 1], its children are y -/+ 2^(k-1), and its
// parent is y + 2^k when bit k+1 of y is clear (y is a left child), else
// y - 2^k.  Eliminating the positions above n (Sect. 2, step 2) gives:
//  - parent: the nearest ancestor <= n.  A left child whose parent y + 2^k
//    is gone gets y - 2^k (y with its lowest bit cleared: its nearest left
//    ancestor, every right ancestor in between being larger still); 0 means
//    y is the root, the largest power of two <= n.
//  - upper child: y + 2^(k-1) or, that being gone, its lower child, and so
//    on: the first y + 2^j <= n for j = k-1, k-2, ..., 0.
//  - subtree: the complete one clipped to [1, n].
struct Pos {
  int64_t parent = 0, lower = 0, upper = 0, lo = 0, hi = 0;  // subtree [lo, hi]
};

Pos inorder_pos(int64_t n, int64_t y) {
  Pos r;
  const int k = __builtin_ctzll(static_cast<unsigned long long>(y));
  const int64_t h = int64_t{1} << k;
  r.parent = ((y >> (k + 1)) & 1) || y + h > n ? y - h : y + h;
  if (k > 0) r.lower = y - h / 2;
  for (int j = k - 1; j >= 0 && r.upper == 0; --j)
    if (y + (int64_t{1} << j) <= n) r.upper = y + (int64_t{1} << j);
  r.lo = std::max<int64_t>(1, y - h + 1);
  r.hi = std::min<int64_t>(n, y + h - 1);
  return r;
}

// Reverses a node through v <-> n-1-v (the mirror construction).
TreeNode mirrored(const TreeNode& a, int n) {
  auto m = [n](int v) { return v < 0 ? -1 : n - 1 - v; };
  TreeNode r;
  r.parent = m(a.parent);
  r.lower = m(a.upper);
  r.upper = m(a.lower);
  r.lo = n - a.hi;
  r.hi = n - a.lo;
  return r;
}

}  // namespace

int inorder_root(int lo, int hi) { return hi > lo ? lo + static_cast<int>(floor_pow2(hi - lo)) - 1 : -1; }

TreeNode inorder_node(int lo, int hi, int v) {
  const Pos q = inorder_pos(hi - lo, v - lo + 1);
  auto at = [lo](int64_t y) { return y == 0 ? -1 : static_cast<int>(lo + y - 1); };
  TreeNode r;
  r.parent = at(q.parent);
  r.lower = at(q.lower);
  r.upper = at(q.upper);
  r.lo = at(q.lo);
  r.hi = at(q.hi) + 1;
  return r;
}

TreeNode rooted_node(int lo, int hi, int root, int v) {
  if (v == root) {
    TreeNode r;
    r.lower = inorder_root(lo, root);
    r.upper = inorder_root(root + 1, hi);
    r.lo = lo;
    r.hi = hi;
    return r;
  }
  TreeNode r = v < root ? inorder_node(lo, root, v) : inorder_node(root + 1, hi, v);
  if (r.parent < 0) r.parent = root;
  return r;
}

TreeNode two_tree_node(int n, TwoTreeShape shape, int tree, int v) {
  if (tree == 0) return inorder_node(0, n, v);
  if (shape == TwoTreeShape::kMirror) return mirrored(inorder_node(0, n, n - 1 - v), n);
  // Shift: the balanced tree over [-1, n) without its leftmost leaf -1.  That
  // leaf is never a parent, and as node 0's lower child it maps to -1, "none".
  TreeNode r = inorder_node(-1, n, v);
  r.lo = std::max(r.lo, 0);
  return r;
}

// ---- Two-tree colouring ----------------------------------------------------

TwoTree::TwoTree(int n, TwoTreeShape shape) : n_(n), shape_(shape) {
  if (shape == TwoTreeShape::kMirror && n % 2 != 0) {
    std::fprintf(stderr, "hiercoll: bug: mirrored two-tree of odd size %d\n", n);
    std::abort();
  }
  if (n <= 0) return;
  root_[0] = inorder_root(0, n);
  root_[1] = shape == TwoTreeShape::kShift ? static_cast<int>(floor_pow2(int64_t{n} + 1)) - 2 : n - 1 - root_[0];

  // Edge (t, x) is x's in-edge in tree t, id t*n + x.  In the bipartite graph
  // of Lemma 1 it meets two others at most: at receiver x its in-edge in the
  // other tree ("R", always there), at its sender the edge to x's sibling
  // ("S": the other child of x's parent, or for a tree root the edge from the
  // virtual root to the other tree's root; none for an only child).
  const int64_t ne = 2 * int64_t{n};
  std::vector<int> sib(ne, -1);
  for (int t = 0; t < 2; ++t)
    for (int x = 0; x < n; ++x) {
      const TreeNode nd = node(t, x);
      if (nd.lower >= 0 && nd.upper >= 0) {
        sib[t * int64_t{n} + nd.lower] = t * n + nd.upper;
        sib[t * int64_t{n} + nd.upper] = t * n + nd.lower;
      }
    }
  sib[root_[0]] = n + root_[1];
  sib[n + root_[1]] = root_[0];
  auto R = [n](int e) { return e < n ? e + n : e - n; };

  // Degree <= 2 everywhere: the edges form paths and (even) cycles.  Walk
  // from each uncoloured edge in its S direction to the end of its path (or
  // back to it: a cycle), then colour alternately from there.
  std::vector<uint8_t> col(ne, 2);
  for (int e = 0; e < ne; ++e) {
    if (col[e] != 2) continue;
    int start = e;
    for (int s = sib[start]; s >= 0; s = sib[start]) {
      const int next = R(s);
      if (next == e) break;  // a cycle: start anywhere
      start = next;
    }
    uint8_t c = 0;
    for (int cur = start;;) {
      col[cur] = c;
      const int r = R(cur);
      if (col[r] != 2) break;
      col[r] = c ^ 1;
      const int s = sib[r];
      if (s < 0 || col[s] != 2) break;
      cur = s;
    }
  }
  colour_[0].assign(col.begin(), col.begin() + n);
  colour_[1].assign(col.begin() + n, col.end());
}

int64_t TwoTree::arrival(int tree, int v) const {
  // Block 0 reaches a child one step after its parent when their in-edge
  // colours differ, two steps when equal (steps alternate in parity).
  int64_t d = 0;
  for (int par = node(tree, v).parent; par >= 0; v = par, par = node(tree, v).parent)
    d += colour_[tree][v] == colour_[tree][par] ? 2 : 1;
  return d + colour_[tree][v];
}

namespace {

template <class NodeFn, class LabelFn>
void subtree_string(std::string* out, int v, const NodeFn& node, const LabelFn& label) {
  *out += label(v);
  const TreeNode nd = node(v);
  if (nd.leaf()) return;
  *out += '(';
  if (nd.lower >= 0) subtree_string(out, nd.lower, node, label);
  else *out += '-';
  *out += ' ';
  if (nd.upper >= 0) subtree_string(out, nd.upper, node, label);
  else *out += '-';
  *out += ')';
}

}  // namespace

std::string TwoTree::to_string() const {
  std::string s;
  for (int t = 0; t < 2; ++t) {
    s += t == 0 ? "T1: " : "\nT2: ";
    if (n_ == 0) {
      s += "empty";
      continue;
    }
    subtree_string(
        &s, root_[t], [&](int v) { return node(t, v); },
        [&](int v) { return std::to_string(v) + "/" + std::to_string(colour_[t][v]); });
  }
  return s;
}

std::string rooted_tree_to_string(int lo, int hi, int root) {
  std::string s;
  if (hi > lo)
    subtree_string(
        &s, root, [&](int v) { return rooted_node(lo, hi, root, v); }, [](int v) { return std::to_string(v); });
  return s;
}

std::shared_ptr<const TwoTree> cached_two_tree(int n) {
  static std::mutex mu;
  static std::vector<std::shared_ptr<const TwoTree>> cache;  // most recently used last
  constexpr size_t kKeep = 8;
  std::lock_guard<std::mutex> lock(mu);
  for (size_t i = 0; i < cache.size(); ++i)
    if (cache[i]->size() == n) {
      std::shared_ptr<const TwoTree> t = cache[i];
      cache.erase(cache.begin() + static_cast<std::ptrdiff_t>(i));
      cache.push_back(t);
      return t;
    }
  cache.push_back(std::make_shared<const TwoTree>(n));
  if (cache.size() > kKeep) cache.erase(cache.begin());
  return cache.back();
}

// ---- Pipelining --------------------------------------------------------------

LocalTree local_rooted_tree(int p, int root, int v) {
  LocalTree lt;
  lt.node = rooted_node(0, p, root, v);
  // A node sends each block to its lower child, then to its upper child.
  for (int x = v, par = lt.node.parent; par >= 0; x = par, par = rooted_node(0, p, root, x).parent)
    lt.arrival += x < par ? 1 : 2;
  lt.lower_arrival = lt.arrival + 1;
  lt.upper_arrival = lt.arrival + 2;
  return lt;
}

LocalTree local_chain(int p, int v) {
  LocalTree lt;
  lt.node.parent = v - 1;
  lt.node.upper = v + 1 < p ? v + 1 : -1;
  lt.node.lo = v;
  lt.node.hi = p;
  lt.arrival = v;
  lt.upper_arrival = v + 1;
  return lt;
}

LocalTree local_chain_down(int p, int v) {
  LocalTree lt;
  lt.node.parent = v + 1 < p ? v + 1 : -1;
  lt.node.lower = v - 1;
  lt.node.lo = 0;
  lt.node.hi = v + 1;
  lt.arrival = p - 1 - v;
  lt.lower_arrival = lt.arrival + 1;
  return lt;
}

LocalTree local_two_tree(const TwoTree& tt, int tree, int v, bool virtual_root) {
  const int n = tt.size();
  LocalTree lt;
  if (virtual_root && v == n) {
    lt.node.lower = tt.root(tree);
    lt.node.hi = n + 1;
    lt.arrival = -1;  // it "has" block k in step 2k-1 and sends it in 2k + colour
    if (n > 0) lt.lower_arrival = tt.colour(tree, lt.node.lower);
    return lt;
  }
  lt.node = tt.node(tree, v);
  if (lt.node.parent < 0 && virtual_root) lt.node.parent = n;
  lt.arrival = tt.arrival(tree, v);
  auto child_arrival = [&](int c) { return lt.arrival + (tt.colour(tree, c) == tt.colour(tree, v) ? 2 : 1); };
  if (lt.node.lower >= 0) lt.lower_arrival = child_arrival(lt.node.lower);
  if (lt.node.upper >= 0) lt.upper_arrival = child_arrival(lt.node.upper);
  return lt;
}

Span TreePipeline::block(const TreePart& part, Buf buf, int64_t k) const {
  const int64_t off = k * seg;
  return Span{buf, part.off + off, std::min(seg, part.n - off)};
}

int64_t pipeline_segment(const CollArgs& a) {
  constexpr int64_t kDefaultSegUnits = 2048;  // 8-16 KiB of common types
  return a.seg_units > 0 ? a.seg_units : kDefaultSegUnits;
}

void build_segmentwise(const CollArgs& a, ScheduleBuilder& b, void (*build)(const CollArgs&, ScheduleBuilder&)) {
  const int64_t seg = pipeline_segment(a);
  const BuilderView outer = b.view();
  CollArgs piece = a;
  for (int64_t off = 0; off < a.count; off += seg) {
    piece.count = std::min(seg, a.count - off);
    BuilderView v = outer;
    v.send_off += off;
    v.recv_off += off;
    ScopedView scope(b, v);
    build(piece, b);
  }
}

void two_tree_halves(int64_t count, int64_t off[2], int64_t n[2]) {
  n[0] = (count + 1) / 2;
  n[1] = count - n[0];
  off[0] = 0;
  off[1] = n[0];
}

bool PipeEvent::operator<(const PipeEvent& o) const {
  return std::tie(time, cls, phase, part, what, block) < std::tie(o.time, o.cls, o.phase, o.part, o.what, o.block);
}

void add_events(std::vector<PipeEvent>* ev, int64_t nblocks, int64_t base, uint8_t cls, uint8_t phase, uint8_t part,
                uint8_t what) {
  for (int64_t k = 0; k < nblocks; ++k) ev->push_back(PipeEvent{base + 2 * k, cls, phase, part, what, k});
}

void add_up_events(std::vector<PipeEvent>* ev, const LocalTree& t, int64_t nblocks, uint8_t part) {
  if (t.node.lower >= 0) add_events(ev, nblocks, -t.lower_arrival, 0, 0, part, kUpFromLower);
  if (t.node.upper >= 0) add_events(ev, nblocks, -t.upper_arrival, 0, 0, part, kUpFromUpper);
  add_events(ev, nblocks, -t.arrival, 1, 0, part, kUpCombine);
}

Span recv_partial(ScheduleBuilder& b, int from, int64_t n) {
  const Span s = b.tmp(n);
  b.recv(from, s);
  return s;
}

}  // namespace hiercoll
