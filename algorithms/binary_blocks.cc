#include "algorithms/binary_blocks.h"

#include <numeric>

#include "algorithms/rabenseifner.h"

namespace hiercoll {

BinaryBlocks::BinaryBlocks(int rank, int p, int64_t count) : rank_(rank) {
  for (int bit = 30, pos = 0; bit >= 0; --bit)
    if (p & (1 << bit)) {
      start_.push_back(pos);
      size_.push_back(1 << bit);
      pos += 1 << bit;
    }
  j_ = 0;
  while (rank >= start_[j_] + size_[j_]) ++j_;
  members_.resize(size_[j_]);
  std::iota(members_.begin(), members_.end(), start_[j_]);
  fine_ = even_blocks(count, size_[0]);
  q_ = halving_piece(rank - start_[j_], size_[j_]);
  below_ = j_ + 1 < blocks() ? holder(j_ + 1, q_ / (size_[j_] / size_[j_ + 1])) : -1;
  if (j_ > 0) {
    const int ratio = size_[j_ - 1] / size_[j_];
    up_lo_ = q_ * ratio;
    up_hi_ = up_lo_ + ratio;
  }
}

// The largest block's pieces merged into size(blk) pieces of adjacent ones.
Blocks BinaryBlocks::layout(int blk) const {
  const int f = fine_.size() / size_[blk];
  std::vector<int64_t> sizes(size_[blk]);
  for (int k = 0; k < size_[blk]; ++k) sizes[k] = fine_.range(Buf::kRecv, k * f, (k + 1) * f).n;
  return blocks_of_sizes(sizes);
}

// halving_piece (a bit reversal) is its own inverse, so it also maps a
// piece to its holder.
int BinaryBlocks::holder(int blk, int k) const { return start_[blk] + halving_piece(k, size_[blk]); }

Span BinaryBlocks::piece(Span acc, int blk, int k) const {
  const int f = fine_.size() / size_[blk];
  Span s = fine_.range(acc.buf, k * f, (k + 1) * f);
  s.off += acc.off;
  return s;
}

void binary_blocks_reduce_up(ScheduleBuilder& b, const BinaryBlocks& bb, Span acc) {
  reduce_scatter_halving_blocks(b, bb.group(), bb.layout(bb.block()), acc);
  const Span mine = bb.mine(acc);
  if (bb.below() >= 0) {
    const Span in = b.tmp(mine.n);
    recv_nonempty(b, bb.below(), in);
    b.reduce(in, mine, /*src_first=*/false);
  }
  for (int k = bb.up_lo(); k < bb.up_hi(); ++k)
    send_nonempty(b, bb.holder(bb.block() - 1, k), bb.piece(acc, bb.block() - 1, k));
}

}  // namespace hiercoll
