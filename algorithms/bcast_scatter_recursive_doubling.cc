// Van de Geijn's broadcast with the recursive doubling allgather
// (algorithms/bcast_scatter_allgather.cc).
#include "algorithms/allgather.h"
#include "algorithms/bcast.h"

namespace hiercoll {

void build_bcast_scatter_recursive_doubling(const CollArgs& a, ScheduleBuilder& b) {
  bcast_scatter_allgather(a, b, allgather_recursive_doubling_blocks);
}

}  // namespace hiercoll
