#include "algorithms/allreduce.h"
#include "algorithms/binary_blocks.h"
#include "algorithms/rabenseifner.h"

namespace hiercoll {

// Binary blocks (Thakur et al. §5.2, Figure 13).  The ranks form blocks of
// the powers of two in p, largest first.  Each block reduce-scatters its
// vectors (§5.1, vector halving / distance doubling).  Then, from the
// smallest block up, each block's partial pieces are split along the next
// larger block's pieces, sent there and reduced (the larger block holds
// lower ranks, so it goes first); see algorithms/binary_blocks.h.  The largest
// block then has the result; it flows back down the same edges (each member
// of a smaller block gets its piece in size-ratio messages), and every
// block allgathers (§5.1, vector doubling / distance halving).  A power of
// two is exactly §5.1.
void build_allreduce_binary_blocks(const CollArgs& a, ScheduleBuilder& b) {
  const Span acc{Buf::kRecv, 0, a.count};
  b.copy(Span{Buf::kSend, 0, a.count}, acc);
  const BinaryBlocks bb(a.rank, a.size, a.count);
  binary_blocks_reduce_up(b, bb, acc);
  for (int k = bb.up_lo(); k < bb.up_hi(); ++k)
    recv_nonempty(b, bb.holder(bb.block() - 1, k), bb.piece(acc, bb.block() - 1, k));
  if (bb.below() >= 0) send_nonempty(b, bb.below(), bb.mine(acc));
  allgather_doubling_blocks(b, bb.group(), bb.layout(bb.block()), acc);
}

}  // namespace hiercoll
