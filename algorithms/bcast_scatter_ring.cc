// Van de Geijn's broadcast with the ring allgather
// (algorithms/bcast_scatter_allgather.cc).
#include "algorithms/allgather.h"
#include "algorithms/bcast.h"

namespace hiercoll {

void build_bcast_scatter_ring(const CollArgs& a, ScheduleBuilder& b) {
  bcast_scatter_allgather(a, b, allgather_ring_blocks);
}

}  // namespace hiercoll
