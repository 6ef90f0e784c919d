#include "algorithms/allgather.h"  // send_nonempty / recv_nonempty
#include "algorithms/rabenseifner.h"
#include "algorithms/reduce_scatter.h"

namespace hiercoll {

// Recursive halving (Thakur et al. §4.4, Figure 9), commutative operations:
// in step k members at distance p/2^(k+1) exchange the blocks of each
// other's half and reduce.  Not a power of two: in the first 2r ranks each
// even rank sends its whole vector to rank + 1, which reduces it, computes
// both ranks' blocks in the power-of-two part (its share is their two
// adjacent blocks) and sends the even rank its block at the end.
void build_reduce_scatter_recursive_halving(const CollArgs& a, ScheduleBuilder& b) {
  const int me = a.rank;
  const Blocks L = blocks_of_sizes(a.counts);
  const Span input{Buf::kSend, 0, L.total()}, result{Buf::kRecv, 0, a.counts[me]};
  const Group g{me, a.size, nullptr};
  const PairFold f(a.size, /*odd_stays=*/true);
  if (!f.stays(me)) {
    send_nonempty(b, me + 1, input);
    recv_nonempty(b, me + 1, result);
    return;
  }
  const Span acc = b.tmp(L.total());  // offsets as in Send
  if (f.paired(me)) {
    recv_nonempty(b, me - 1, acc);
    b.reduce(input, acc, /*src_first=*/true);  // commutative: order is free
  } else {
    b.copy(input, acc);
  }
  std::vector<int> storage;
  const Group core = f.subgroup(g, &storage);
  std::vector<int64_t> shares(core.size, 0);
  for (int j = 0; j < a.size; ++j) shares[f.stands_for(j)] += a.counts[j];
  reduce_scatter_halving_blocks(b, core, blocks_of_sizes(shares), acc, Distance::kHalving);
  auto block = [&](int j) { return Span{Buf::kTmp, acc.off + L.off[j], L.n[j]}; };
  if (f.paired(me)) send_nonempty(b, me - 1, block(me - 1));
  b.copy(block(me), result);
}

}  // namespace hiercoll
