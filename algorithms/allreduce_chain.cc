#include "algorithms/allreduce.h"
#include "algorithms/bcast.h"
#include "algorithms/reduce.h"

namespace hiercoll {

// Chain (Vadhiyar, Fagg, Dongarra, Table 1): the chain reduce into rank p-1
// (rank order, so no forwarding for any operation), then the chain
// broadcast from it.
void build_allreduce_chain(const CollArgs& a, ScheduleBuilder& b) {
  reduce_then_bcast(a, b, a.size - 1, build_reduce_chain, build_bcast_chain);
}

}  // namespace hiercoll
