// Binomial gather and scatter (Thakur et al.), also used inside other
// algorithms.  Primitives: in group g rooted at group index `root`,
// binomial_scatter_blocks moves block i of L (held in buf at the root) to
// group member i; binomial_gather_blocks moves every member's block i of L
// (in buf at member i) to the root.  Intermediate ranks hold their subtree's
// blocks in buf at the same offsets (callers give a buffer that is large
// enough on every rank: Recv on a full-size buffer, or Tmp).
//
// The tree is MPICH's binomial tree over relative ranks v: v's parent is v
// minus its lowest set bit, v's subtree is the relative ranks
// [v, v + lowbit(v)) (the root's: all of them).  Relative ranks are
// v = (i - root) mod p in general; in a power-of-two group v = i ^ root, so
// every subtree is an aligned run of group indices and, as in the gather of
// Rabenseifner's reduce (Thakur et al. §5.1), a rank's partners are those of
// recursive halving.  A subtree's blocks go in one message, or two where its
// group indices wrap past p - 1 to 0, so no rank rotates its data.
//
// Only the block sizes L.n must agree between ranks: offsets are local, so a
// rank may lay its blocks out as it likes (binomial_subtree_scratch packs
// just its subtree), as long as the blocks of each message piece (indices
// a..b-1, never wrapping) are adjacent in index order.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/blocks.h"
#include "algorithms/group.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

void binomial_scatter_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf);
void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf);

// Forms where this member's own block lives outside buf: scatter delivers it
// to `own` (a leaf receives it there directly, others copy it there), gather
// takes it from `own` (a leaf sends it from there directly, others copy it
// into buf first).  The forms above use own = L.span(buf, g.me).
void binomial_scatter_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf, Span own);
void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf, Span own);

// A member's subtree packed, piece by piece, into scratch of just its size
// (L's block sizes; only the subtree's blocks are ever asked for).  It
// refers to L and keeps two pieces, where a copy of L with the scratch's
// offsets costs O(p) on every rank: p^2 over the ranks a simulation or a
// decision builds.  span and range cost O(subtree), as the walk's own
// messages do.
struct SubtreeBlocks {
  const Blocks* L = nullptr;  // the block sizes
  int lo[2] = {0, 0}, hi[2] = {0, 0};
  int64_t base[2] = {0, 0};  // where each piece starts in the scratch
  Span span(Buf buf, int i) const { return range(buf, i, i + 1); }
  // Blocks first..last-1 of one piece.
  Span range(Buf buf, int first, int last) const;
};

// This member's subtree in fresh scratch (Buf::kTmp), for non-root ranks
// that only forward.  A leaf gets no scratch: the primitives use `own` for
// it.
SubtreeBlocks binomial_subtree_scratch(ScheduleBuilder& b, const Blocks& L, const Group& g, int root);
void binomial_scatter_blocks(ScheduleBuilder& b, const Group& g, int root, const SubtreeBlocks& L, Buf buf, Span own);
void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const SubtreeBlocks& L, Buf buf, Span own);
// L's blocks back to back in rank order in fresh scratch (a root whose
// blocks do not lie that way in its buffer).
Blocks packed_in_scratch(ScheduleBuilder& b, const Blocks& L);

void build_gather_binomial(const CollArgs& a, ScheduleBuilder& b);
void build_scatter_binomial(const CollArgs& a, ScheduleBuilder& b);

// Vadhiyar, Fagg, Dongarra (Table 1): sequential (linear), chain and binary
// tree; the last two segmented (seg_units blocks per message,
// algorithms/block_tree.h).
void build_gather_linear(const CollArgs& a, ScheduleBuilder& b);
void build_scatter_linear(const CollArgs& a, ScheduleBuilder& b);
// Linear in segments of seg_units blocks (0: one segment), each segment's
// messages after the previous one's (algorithms/gather_scatter_linear.cc).
void build_gather_linear_segmented(const CollArgs& a, ScheduleBuilder& b);
void build_scatter_linear_segmented(const CollArgs& a, ScheduleBuilder& b);
void build_gather_chain(const CollArgs& a, ScheduleBuilder& b);
void build_scatter_chain(const CollArgs& a, ScheduleBuilder& b);
void build_gather_binary_tree(const CollArgs& a, ScheduleBuilder& b);
void build_scatter_binary_tree(const CollArgs& a, ScheduleBuilder& b);

// The tree, shared by the gather and scatter primitives.
namespace binomial_detail {

inline int lowbit(int v) { return v & -v; }

struct Tree {
  int p, root;
  bool use_xor;  // power-of-two group
  Tree(int size, int r) : p(size), root(r), use_xor((size & (size - 1)) == 0) {}
  int rel(int i) const { return use_xor ? i ^ root : (i - root + p) % p; }
  int real(int v) const { return use_xor ? v ^ root : (v + root) % p; }
  int parent(int v) const { return v - lowbit(v); }
  // Children are v + m for the masks m below this bound with v + m < p.
  int child_bound(int v) const { return v == 0 ? p : lowbit(v); }
  int subtree_len(int v) const {
    if (v == 0) return p;
    return lowbit(v) < p - v ? lowbit(v) : p - v;
  }
  // Calls f(a, b) for the runs [a, b) of group indices that v's subtree
  // covers: one run, or two where it wraps past p - 1.
  template <typename F>
  void for_each_piece(int v, F f) const {
    const int len = subtree_len(v);
    const int first = use_xor ? real(v) & ~(len - 1) : real(v);
    if (first + len <= p) {
      f(first, first + len);
    } else {
      f(first, p);
      f(0, first + len - p);
    }
  }
};

// Blocks a..b-1 in buf as one span (they must be adjacent in buf).
inline Span piece_span(const Blocks& L, Buf buf, int a, int b) {
  int64_t n = 0;
  for (int i = a; i < b; ++i) n += L.n[i];
  return Span{buf, a < b ? L.off[a] : 0, n};
}
inline Span piece_span(const SubtreeBlocks& L, Buf buf, int a, int b) { return L.range(buf, a, b); }

inline bool same_span(const Span& x, const Span& y) { return x.buf == y.buf && x.off == y.off && x.n == y.n; }

// The tree walk gather and scatter share: the virtual ranks of v's
// children, smallest subtree first.
inline std::vector<int> children(const Tree& t, int v) {
  std::vector<int> out;
  for (int m = 1; m < t.child_bound(v) && v + m < t.p; m <<= 1) out.push_back(v + m);
  return out;
}

// Sends v's subtree's blocks to `peer` (or receives them from it), one
// message per piece that holds data.
template <bool kSend, class BlockMap>
void move_subtree(ScheduleBuilder& b, const Tree& t, int v, const BlockMap& L, Buf buf, int peer) {
  t.for_each_piece(v, [&](int lo, int hi) {
    const Span s = piece_span(L, buf, lo, hi);
    if (s.n == 0) return;
    if (kSend) b.send(peer, s);
    else b.recv(peer, s);
  });
}

}  // namespace binomial_detail

}  // namespace hiercoll
