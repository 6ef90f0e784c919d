#include <numeric>

#include "flat/allgather.h"  // send_nonempty / recv_nonempty
#include "flat/allreduce.h"
#include "flat/rabenseifner.h"

namespace hiercoll {

namespace {

// `fine` merged into `parts` pieces of fine.size() / parts adjacent pieces
// each, so the layouts of all power-of-two blocks nest.
Blocks coarsen(const Blocks& fine, int parts) {
  const int f = fine.size() / parts;
  std::vector<int64_t> sizes(parts);
  for (int k = 0; k < parts; ++k) sizes[k] = fine.range(Buf::kRecv, k * f, (k + 1) * f).n;
  return blocks_of_sizes(sizes);
}

Span piece(const Blocks& L, int k) { return L.span(Buf::kRecv, k); }

}  // namespace

// Binary blocks (Thakur et al. §5.2, Figure 13).  The ranks form blocks of
// the powers of two in p, largest first.  Each block reduce-scatters its
// vectors (§5.1, vector halving / distance doubling).  Then, from the
// smallest block up, each block's partial pieces are split along the next
// larger block's pieces, sent there and reduced (the larger block holds
// lower ranks, so it goes first).  The largest block then has the result;
// it flows back down the same edges (each member of a smaller block gets
// its piece in size-ratio messages), and every block allgathers (§5.1,
// vector doubling / distance halving).  A power of two is exactly §5.1.
void build_allreduce_binary_blocks(const CollArgs& a, ScheduleBuilder& b) {
  const Span acc{Buf::kRecv, 0, a.count};
  b.copy(Span{Buf::kSend, 0, a.count}, acc);
  std::vector<int> start, size;
  for (int bit = 30, pos = 0; bit >= 0; --bit)
    if (a.size & (1 << bit)) {
      start.push_back(pos);
      size.push_back(1 << bit);
      pos += 1 << bit;
    }
  const int nblocks = static_cast<int>(size.size());
  int j = 0;
  while (a.rank >= start[j] + size[j]) ++j;
  const Blocks fine = even_blocks(a.count, size[0]);
  auto layout = [&](int blk) { return coarsen(fine, size[blk]); };
  // Member i of block blk holds piece halving_piece(i) of layout(blk);
  // halving_piece (a bit reversal) is its own inverse, so it also maps a
  // piece to its holder.
  auto holder = [&](int blk, int k) { return start[blk] + halving_piece(k, size[blk]); };

  std::vector<int> members(size[j]);
  std::iota(members.begin(), members.end(), start[j]);
  const Group block{a.rank - start[j], size[j], &members};
  const Blocks L = layout(j);
  reduce_scatter_halving_blocks(b, block, L, acc);
  const int q = halving_piece(block.me, size[j]);
  const Span mine = piece(L, q);

  // The smaller block's member whose piece contains mine, and the larger
  // block's pieces mine contains.
  const int below = j + 1 < nblocks ? holder(j + 1, q / (size[j] / size[j + 1])) : -1;
  const Blocks upper = j > 0 ? layout(j - 1) : Blocks();
  const int ratio = j > 0 ? size[j - 1] / size[j] : 0;

  if (below >= 0) {
    const Span in = b.tmp(mine.n);
    recv_nonempty(b, below, in);
    b.reduce(in, mine, /*src_first=*/false);
  }
  for (int k = q * ratio; k < (q + 1) * ratio; ++k) send_nonempty(b, holder(j - 1, k), piece(upper, k));
  for (int k = q * ratio; k < (q + 1) * ratio; ++k) recv_nonempty(b, holder(j - 1, k), piece(upper, k));
  if (below >= 0) send_nonempty(b, below, mine);
  allgather_doubling_blocks(b, block, L, acc);
}

}  // namespace hiercoll
