// Scatter and gather of one block per rank along a tree whose subtrees are
// runs of virtual ranks: node v covers [lo, hi), virtual v being rank
// (v + shift) % p (the chain, the in-order binary tree of algorithms/trees.h).
// The chain and binary scatter / gather of Vadhiyar, Fagg, Dongarra (§2.2,
// §2.3), segmented as the paper does: a node passes its children their
// ranges in messages of at most `seg` blocks, cut on one grid for all ranks
// (multiples of seg, and the virtual rank where real ranks wrap past p-1 to
// 0), so every message is one contiguous span on both of its ends and a
// node forwards a piece as soon as the piece that holds it has arrived.
//
// The root works in the user's buffer (scatter: Send, gather: Recv) at real
// rank offsets; other ranks hold their subtree's blocks in scratch, a leaf
// receives or sends its own block where it is.
#pragma once

#include <cstdint>
#include <functional>

#include "algorithms/trees.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

struct BlockTree {
  int p = 1;
  int shift = 0;
  int64_t seg = 0;  // blocks per message; 0: a child's whole range at once
  int root = 0;     // virtual rank of the tree's root
  std::function<TreeNode(int)> node;  // the node of virtual rank v
  int real(int v) const { return (v + shift) % p; }
};

// A tree over the call's group with segments of a.seg_units blocks.
BlockTree block_tree(const CollArgs& a, int shift, int root, std::function<TreeNode(int)> node);

// Scatter: Send[0,p) at the root only, Recv[0,1) mine.
void tree_scatter_blocks(const CollArgs& a, const BlockTree& t, ScheduleBuilder& b);
// Gather: Send[0,1) mine, Recv[0,p) at the root only.
void tree_gather_blocks(const CollArgs& a, const BlockTree& t, ScheduleBuilder& b);

}  // namespace hiercoll
