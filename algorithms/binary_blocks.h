// The binary-blocks decomposition (Thakur, Rabenseifner, Gropp §5.2) and
// the part its allreduce and reduce share: the reduce-scatter in the blocks
// and the combination of the blocks' partial pieces from the smallest block
// up, after which the largest block holds the reduced vector, a piece per
// member.
//
// The ranks form blocks of the powers of two in p, largest (lowest ranks)
// first.  Block blk's layout cuts the vector into size[blk] pieces; all
// layouts nest (a piece of a smaller block is a run of whole pieces of a
// larger one).  Member i of a block holds piece halving_piece(i) of its
// layout (algorithms/rabenseifner.h, distance doubling), so rank order is kept in
// every reduction and any operation works.  Piece offsets are relative to
// the accumulator acc, as in algorithms/rabenseifner.h.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/blocks.h"
#include "algorithms/group.h"
#include "schedule/builder.h"

namespace hiercoll {

class BinaryBlocks {
 public:
  BinaryBlocks(int rank, int p, int64_t count);
  BinaryBlocks(const BinaryBlocks&) = delete;  // group() points into members_
  BinaryBlocks& operator=(const BinaryBlocks&) = delete;

  int blocks() const { return static_cast<int>(size_.size()); }
  int start(int blk) const { return start_[blk]; }
  int size(int blk) const { return size_[blk]; }
  Blocks layout(int blk) const;
  // The rank that holds piece k of block blk's layout.
  int holder(int blk, int k) const;

  // This rank: its block, the block as a group, the piece it holds.
  int block() const { return j_; }
  Group group() const { return Group{rank_ - start_[j_], size_[j_], &members_}; }
  int piece_index() const { return q_; }
  Span piece(Span acc, int blk, int k) const;
  Span mine(Span acc) const { return piece(acc, j_, q_); }
  // The member of the next smaller block whose piece contains mine (-1 in
  // the smallest block), and the pieces [up_lo, up_hi) of the next larger
  // block's layout that mine splits into (empty in the largest block).
  int below() const { return below_; }
  int up_lo() const { return up_lo_; }
  int up_hi() const { return up_hi_; }

 private:
  int rank_;
  std::vector<int> start_, size_, members_;
  Blocks fine_;  // the largest block's layout; the others coarsen it
  int j_, q_, below_, up_lo_ = 0, up_hi_ = 0;
};

// On entry acc holds this rank's input vector.  Each block reduce-scatters;
// then, from the smallest block up, each member receives from below() the
// reduction of the smaller blocks over its piece, reduces it in (its own
// block's lower ranks first) and sends the result, cut into the next larger
// block's pieces, to their holders.  Afterwards the member of the largest
// block holds its piece of the reduction over all ranks; the rest of acc,
// and acc on the other blocks, is partial.
void binary_blocks_reduce_up(ScheduleBuilder& b, const BinaryBlocks& bb, Span acc);

}  // namespace hiercoll
