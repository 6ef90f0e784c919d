// Trees of the pipelined tree collectives (Sanders, Speck, Träff, "two-tree"
// paper, Sect. 2) and the machinery the pipelined bcast / reduce / scan
// generators share.
//
// Every tree here is IN-ORDER numbered: the subtree of node v covers a
// contiguous range [lo, hi) of ranks, with v's lower child covering [lo, v)
// and its upper child (v, hi).  Reductions and prefix sums along such a tree
// combine adjacent rank ranges only, so non-commutative operations keep rank
// order.  All tree functions are pure and cheap (O(log n) per node); the
// two-tree colouring is O(n) once per size and cached.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

struct TreeNode {
  int parent = -1;             // -1: the tree's root
  int lower = -1, upper = -1;  // children covering ranks below / above; -1: none
  int lo = 0, hi = 0;          // the subtree covers [lo, hi)
  bool leaf() const { return lower < 0 && upper < 0; }
};

// The paper's balanced in-order tree over [lo, hi) (Sect. 2, steps 1-2): the
// in-order numbered complete tree of size 2^h - 1 >= hi - lo whose leaves are
// lo, lo+2, ..., with the nodes at hi and above eliminated (a removed node's
// only child takes its place).  Its root is lo + 2^floor(log2(hi-lo)) - 1.
int inorder_root(int lo, int hi);
TreeNode inorder_node(int lo, int hi, int v);

// The in-order tree over [lo, hi) rooted at `root`: its lower subtree is the
// balanced tree over [lo, root), its upper one the balanced tree over
// [root+1, hi).  Depth at most one more than balanced; with root ==
// inorder_root(lo, hi) it IS the balanced tree.  The pipelined binary tree
// algorithms use it, so any root works, non-commutative operations included.
TreeNode rooted_node(int lo, int hi, int root, int v);

// The two trees T1 (tree 0) and T2 (tree 1) over nodes [0, n), in which
// every node is interior in at most one tree (Sect. 2):
//  kShift:  T1 is inorder_node(0, n); T2 is the balanced tree over
//           [-1, n) with its leftmost leaf -1 removed (steps 3-5: "shift one
//           position to the left").  Works for every n.
//  kMirror: T2 is T1 mirrored (v <-> n-1-v), the appendix's construction;
//           even n only (for odd n leaves would mirror onto leaves).
// For bcast and reduce a virtual root n sits above both trees' roots (the
// paper's broadcast root p-1); scan uses the trees alone.
//
// Colouring (Lemma 1): every edge parent->child, the two edges from the
// virtual root included, gets colour 0 or 1 such that (1) a node's in-edges
// in T1 and T2 differ and (2) a node's out-edges differ.  Then in the
// paper's schedule (edges of colour c carry blocks in steps of parity c)
// every node sends at most once and receives at most once per step.
//
// We compute it as the proof of Lemma 1 does, in O(n): the bipartite graph
// of senders and receivers has degree <= 2, so its edges form paths and
// even cycles, which we 2-colour by walking them.  (The appendix's O(log p)
// function inEdgeColor, as printed -- colour(i) = colour(parent) xor (p/2
// mod 2) xor [parent > i], T2's in-edges the opposite colour -- violates
// condition 2 at T2's nodes for most n with either construction, the
// mirror one included (first at n = 10), so we do not use it.  The O(n)
// walk takes a few ms at n = 100000 and is cached.)
enum class TwoTreeShape : uint8_t { kShift, kMirror };

TreeNode two_tree_node(int n, TwoTreeShape shape, int tree, int v);

class TwoTree {
 public:
  explicit TwoTree(int n, TwoTreeShape shape = TwoTreeShape::kShift);
  int size() const { return n_; }
  TwoTreeShape shape() const { return shape_; }
  TreeNode node(int tree, int v) const { return two_tree_node(n_, shape_, tree, v); }
  int root(int tree) const { return root_[tree]; }
  // Colour of v's in-edge in `tree` (a tree root's: the edge from the
  // virtual root).
  int colour(int tree, int v) const { return colour_[tree][v]; }
  // The step at which block 0 of `tree` reaches v in the paper's broadcast
  // schedule: the virtual root sends block k of tree t in step 2k + colour
  // of its edge, and a node forwards to a child in the first later step of
  // that child's colour.  Block k arrives at arrival + 2k.
  int64_t arrival(int tree, int v) const;
  std::string to_string() const;

 private:
  int n_;
  TwoTreeShape shape_;
  int root_[2] = {-1, -1};
  std::vector<uint8_t> colour_[2];
};

// Shared, cached instance (shift construction) for n tree nodes.
std::shared_ptr<const TwoTree> cached_two_tree(int n);

// "v(lower upper)" nested, "-" for a missing child (TwoTree::to_string
// writes "v/colour").  For debugging and tests.
std::string rooted_tree_to_string(int lo, int hi, int root);

// ---- Pipelining over trees -------------------------------------------------
//
// One rank's view of one tree: its node, and the steps at which block 0
// reaches it and its children in the broadcast schedule.  In a broadcast
// block k crosses the edge into node x in step arrival(x) + 2k; reductions
// run the same schedule backwards (edge from x in step 2k - arrival(x)).
// Generators list their steps in this order, so both ends of every pair list
// their messages in the same order, and chain each rank's sends in it (one
// send at a time, the paper's one-ported model).
struct LocalTree {
  TreeNode node;
  int64_t arrival = 0, lower_arrival = 0, upper_arrival = 0;
};

// The rooted in-order tree over [0, p) (a node sends to its lower child,
// then its upper child).
LocalTree local_rooted_tree(int p, int root, int v);
// The linear pipeline 0 -> 1 -> ... -> p-1 (each node's "upper" child is
// the next).
LocalTree local_chain(int p, int v);
// The linear pipeline p-1 -> ... -> 1 -> 0 as an in-order tree (each node's
// lower child is the previous rank): along it a prefix needs the up phase
// only, every node's prefix being its subtree's sum.
LocalTree local_chain_down(int p, int v);
// Tree `tree` of the two-tree.  With `virtual_root`, node n is the root above
// both trees (its one child is the tree's root, as its lower child) and the
// tree roots' parent is n; without, the tree roots have no parent.
LocalTree local_two_tree(const TwoTree& tt, int tree, int v, bool virtual_root);

// A collective pipelined over one or more trees, each carrying its own range
// of the data, cut into blocks of `seg` units.  Tree nodes are virtual ranks:
// virtual v is rank (v + shift) % p of the group.
struct TreePart {
  LocalTree tree;
  int64_t off = 0, n = 0;
};
struct TreePipeline {
  int p = 1;
  int shift = 0;
  int64_t seg = 1;
  std::vector<TreePart> parts;
  int real(int v) const { return (v + shift) % p; }
  int64_t blocks(const TreePart& part) const { return (part.n + seg - 1) / seg; }
  Span block(const TreePart& part, Buf buf, int64_t k) const;
};

// Segment size for a call: a.seg_units, or a default when it is 0.
int64_t pipeline_segment(const CollArgs& a);
// The autotuning paper's segmentation of a whole-message algorithm
// (Vadhiyar, Fagg, Dongarra §2): `build` runs on each segment of
// pipeline_segment(a) units of [0, count) in turn, through a view that
// shifts Send and Recv to the segment (composed with the builder's view).
// Segment k's steps are listed before segment k+1's on every rank, so both
// ends of a pair match them in order, and the hazards let segment k+1's
// receives overlap segment k's sends.
void build_segmentwise(const CollArgs& a, ScheduleBuilder& b, void (*build)(const CollArgs&, ScheduleBuilder&));
// [0, count) split into two halves, one for each tree of the two-tree.
void two_tree_halves(int64_t count, int64_t off[2], int64_t n[2]);

// The pipelined generators, each written once for any set of trees
// (implemented in bcast_pipelined_tree.cc, reduce_pipelined_tree.cc,
// scan_pipelined_tree.cc).
//  tree_bcast:  the node without a parent holds Recv; everyone ends with it.
//  tree_reduce: reduces Send of every node toward the parentless node, in
//               the trees' rank order; that node keeps the result in Recv
//               (result_buf kRecv) or in scratch (kTmp), and the spans of
//               its result blocks, [part][block], are returned.
//  tree_scan:   inclusive or exclusive prefix along in-order trees over all
//               ranks (virtual == real, lo == 0 at the leftmost path).
void tree_bcast(const TreePipeline& pl, ScheduleBuilder& b);
std::vector<std::vector<Span>> tree_reduce(const TreePipeline& pl, Buf result_buf, ScheduleBuilder& b);
void tree_scan(const TreePipeline& pl, bool exclusive, ScheduleBuilder& b);
// tree_scan of the whole vector along one tree (this rank's node of it),
// in the call's pipeline segments.
void tree_scan_along(const CollArgs& a, const LocalTree& tree, bool exclusive, ScheduleBuilder& b);

// Shared by the generators: communication events ordered by step.
struct PipeEvent {
  int64_t time;
  uint8_t cls;    // 0: receive (and what it feeds locally), 1: send / compute
  uint8_t phase;  // scan: 0 up, 1 down
  uint8_t part;
  uint8_t what;   // generator-specific
  int64_t block;
  bool operator<(const PipeEvent& o) const;
};
// Adds block k at time base + 2k for every k < nblocks.
void add_events(std::vector<PipeEvent>* ev, int64_t nblocks, int64_t base, uint8_t cls, uint8_t phase, uint8_t part,
                uint8_t what);

// The up (reduce) phase of one tree node, shared by tree_reduce and
// tree_scan: block k's partial results arrive from the lower and the upper
// child (kUpFromLower, kUpFromUpper), then the node combines them with its
// own block (kUpCombine).  Generators number their further events from
// kUpEvents on.
enum : uint8_t { kUpFromLower, kUpFromUpper, kUpCombine, kUpEvents };
void add_up_events(std::vector<PipeEvent>* ev, const LocalTree& t, int64_t nblocks, uint8_t part);
// Receives a child's partial result of `n` units into fresh scratch.
Span recv_partial(ScheduleBuilder& b, int from, int64_t n);

// Sends one at a time, in the order they are listed.
class SendChain {
 public:
  int send(ScheduleBuilder& b, int peer, Span s) {
    last_ = b.send(peer, s, {last_});
    return last_;
  }

 private:
  int last_ = -1;
};

// The one walk of tree_bcast, tree_reduce and tree_scan: `list(&ev, part,
// nblocks)` adds each part's events, which are then taken in step order
// (so both ends of every pair list their messages alike), and `step(e,
// part, chain)` writes an event's steps, its sends one at a time.
template <typename List, typename Step>
void walk_tree_pipeline(const TreePipeline& pl, List list, Step step) {
  std::vector<PipeEvent> ev;
  for (size_t i = 0; i < pl.parts.size(); ++i) list(&ev, static_cast<uint8_t>(i), pl.blocks(pl.parts[i]));
  std::sort(ev.begin(), ev.end());
  SendChain chain;
  for (const PipeEvent& e : ev) step(e, pl.parts[e.part], chain);
}

}  // namespace hiercoll
