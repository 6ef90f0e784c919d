// Rabenseifner's reduce (Thakur et al. §5.1, "recursive halving and
// doubling", Reduce): for p not a power of two, fold pairs of the first 2r
// ranks so p' = 2^floor(lg p) remain (Figure 12); reduce-scatter by
// recursive vector halving and distance doubling; then a binomial-tree
// gather by vector doubling and distance halving to the root.  The paper
// swaps a folded-away root with its partner; the fold keeps the root
// (must_stay), which costs the same.
#include "algorithms/rabenseifner.h"
#include "algorithms/reduce.h"

namespace hiercoll {

Span reduce_accumulator(const CollArgs& a, ScheduleBuilder& b) {
  const bool is_root = a.rank == a.root;
  const Span acc = is_root ? Span{Buf::kRecv, 0, a.count} : b.tmp(a.count);
  if (!(is_root && a.send_alias >= 0)) b.copy(Span{Buf::kSend, 0, a.count}, acc);
  return acc;
}

void build_reduce_rabenseifner(const CollArgs& a, ScheduleBuilder& b) {
  const int64_t n = a.count;
  if (n == 0) return;
  const Span acc = reduce_accumulator(a, b);
  const Group g{a.rank, a.size, nullptr};
  std::vector<int> storage;
  const Group core = rabenseifner_fold_in(b, g, acc, &storage, a.root);
  if (core.me < 0) return;
  const std::shared_ptr<const Blocks> L = shared_even_blocks(n, core.size);
  // Distance doubling keeps rank order in every combination.
  reduce_scatter_halving_blocks(b, core, *L, acc, Distance::kDoubling);
  gather_doubling_blocks(b, core, *L, acc, PairFold(a.size, /*odd_stays=*/false, a.root).new_index(a.root),
                         Distance::kDoubling);
}

}  // namespace hiercoll
