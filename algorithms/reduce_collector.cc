#include "algorithms/reduce_collector.h"

#include <algorithm>
#include <utility>

namespace hiercoll {

int reduce_collector(const CollArgs& a) {
  return a.commutative || a.root == 0 || a.root == a.size - 1 ? a.root : a.size - 1;
}

void collector_zero_own_first(const CollArgs& a, int collector, LocalTree* t) {
  if (collector != 0 || a.rank != 0) return;
  std::swap(t->node.lower, t->node.upper);
  std::swap(t->lower_arrival, t->upper_arrival);
}

void forward_to_root(const CollArgs& a, int collector, const TreePipeline& pl,
                     const std::vector<std::vector<Span>>& result, ScheduleBuilder& b) {
  if (collector == a.root || (a.rank != collector && a.rank != a.root)) return;
  SendChain chain;
  int64_t most = 0;
  for (const TreePart& part : pl.parts) most = std::max(most, pl.blocks(part));
  for (int64_t k = 0; k < most; ++k)
    for (size_t i = 0; i < pl.parts.size(); ++i) {
      if (k >= pl.blocks(pl.parts[i])) continue;
      if (a.rank == collector) chain.send(b, a.root, result[i][k]);
      else b.recv(collector, pl.block(pl.parts[i], Buf::kRecv, k));
    }
}

}  // namespace hiercoll
