#include "algorithms/allgather.h"
#include "algorithms/allreduce.h"
#include "algorithms/reduce_scatter.h"

namespace hiercoll {

// Ring (Thakur et al. §5.3): pairwise-exchange reduce-scatter of the vector
// cut into p blocks (§4.4), then ring allgather of the blocks (§4.1).
void build_allreduce_ring(const CollArgs& a, ScheduleBuilder& b) {
  const Group g{a.rank, a.size, nullptr};
  const Blocks L = even_blocks(a.count, a.size);
  reduce_scatter_pairwise_blocks(b, g, L, Buf::kSend, L.span(Buf::kRecv, a.rank));
  allgather_ring_blocks(b, g, L, Buf::kRecv);
}

}  // namespace hiercoll
