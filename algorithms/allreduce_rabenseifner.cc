#include "algorithms/allreduce.h"
#include "algorithms/rabenseifner.h"

namespace hiercoll {

// Rabenseifner (Thakur et al. §5.1): fold to p' = 2^floor(lg p) members,
// reduce-scatter by vector halving / distance doubling, allgather by
// vector doubling / distance halving, and return the result to the members
// folded away.
void build_allreduce_rabenseifner(const CollArgs& a, ScheduleBuilder& b) {
  const Span acc{Buf::kRecv, 0, a.count};
  b.copy(Span{Buf::kSend, 0, a.count}, acc);
  const Group g{a.rank, a.size, nullptr};
  std::vector<int> storage;
  const Group core = rabenseifner_fold_in(b, g, acc, &storage);
  if (core.me >= 0) {
    const std::shared_ptr<const Blocks> L = shared_even_blocks(a.count, core.size);
    reduce_scatter_halving_blocks(b, core, *L, acc);
    allgather_doubling_blocks(b, core, *L, acc);
  }
  pair_fold_return(b, g, PairFold(a.size, /*odd_stays=*/false), acc);
}

}  // namespace hiercoll
