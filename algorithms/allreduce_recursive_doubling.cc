#include "algorithms/allgather.h"  // send_nonempty / recv_nonempty
#include "algorithms/allreduce.h"
#include "algorithms/rabenseifner.h"

namespace hiercoll {

// Recursive doubling (Thakur et al. §4.5): in step k members at distance
// 2^k exchange their whole partial result and reduce, lower ranks' data
// first.  Not a power of two (MPICH): in the first 2r ranks each even rank
// sends its vector to rank + 1 and waits; the odd ranks and the rest run
// the power-of-two algorithm and the odd ranks return the result.
void build_allreduce_recursive_doubling(const CollArgs& a, ScheduleBuilder& b) {
  const Span input{Buf::kSend, 0, a.count}, acc{Buf::kRecv, 0, a.count};
  const Group g{a.rank, a.size, nullptr};
  const PairFold f(a.size, /*odd_stays=*/true);
  if (!f.stays(a.rank)) {
    send_nonempty(b, a.rank + 1, input);
    pair_fold_return(b, g, f, acc);
    return;
  }
  b.copy(input, acc);
  const Span in = b.tmp(a.count);
  if (f.paired(a.rank)) {
    recv_nonempty(b, a.rank - 1, in);
    b.reduce(in, acc, /*src_first=*/true);
  }
  std::vector<int> storage;
  const Group core = f.subgroup(g, &storage);
  for (int mask = 1; mask < core.size; mask <<= 1) {
    const int partner = core.me ^ mask;
    send_nonempty(b, core.peer(partner), acc);
    recv_nonempty(b, core.peer(partner), in);
    b.reduce(in, acc, /*src_first=*/partner < core.me);
  }
  pair_fold_return(b, g, f, acc);
}

}  // namespace hiercoll
