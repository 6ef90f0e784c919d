#include "algorithms/reduce.h"
#include "algorithms/reduce_collector.h"
#include "algorithms/trees.h"

namespace hiercoll {

// Chain reduce (Vadhiyar, Fagg, Dongarra §2.2, Table 1): the chain
// broadcast reversed.  Segment by segment, each rank receives the partial
// result of the ranks before it in the chain, adds its own and passes it
// on, so the chain is a pipeline ending at the collector
// (algorithms/reduce_collector.h: the root, or rank p-1 which forwards to the
// root when a non-commutative operation needs rank order).
void build_reduce_chain(const CollArgs& a, ScheduleBuilder& b) {
  const int collector = reduce_collector(a);
  TreePipeline pl;
  pl.p = a.size;
  pl.shift = collector + 1;
  pl.seg = pipeline_segment(a);
  LocalTree lt = local_chain_down(a.size, collector_virtual(a, collector));
  collector_zero_own_first(a, collector, &lt);
  pl.parts.push_back({lt, 0, a.count});
  forward_to_root(a, collector, pl, tree_reduce(pl, collector_result_buf(a, collector), b), b);
}

}  // namespace hiercoll
