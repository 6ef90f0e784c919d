// Van de Geijn's broadcast (Thakur et al. §4.2): the root's message, cut
// into p pieces (piece i for rank i; some are empty when count < p), is
// scattered down a binomial tree and then allgathered, by recursive doubling
// (medium messages) or by a ring (long messages).
#include "algorithms/allgather.h"
#include "algorithms/bcast.h"
#include "algorithms/gather_scatter.h"

namespace hiercoll {

void bcast_scatter_allgather(const CollArgs& a, ScheduleBuilder& b, AllgatherBlocksFn allgather) {
  if (a.count == 0) return;
  const Group g{a.rank, a.size, nullptr};
  const std::shared_ptr<const Blocks> L = shared_even_blocks(a.count, a.size);
  binomial_scatter_blocks(b, g, a.root, *L, Buf::kRecv);
  allgather(b, g, *L, Buf::kRecv);
}

}  // namespace hiercoll
