#include "algorithms/allreduce.h"
#include "algorithms/bcast.h"
#include "algorithms/reduce.h"

namespace hiercoll {

// Reduce to `root`, then broadcast from it, by composing the two
// generators.  In place only the root's reduce is in place (reduce's
// convention); the other ranks' reduce reads Send, which the builder knows
// aliases Recv, so the broadcast's writes wait for it.  Pipelined
// generators overlap the two phases segment by segment (hazards link a
// segment's broadcast to its reduction).
void reduce_then_bcast(const CollArgs& a, ScheduleBuilder& b, int root, BuildFn reduce, BuildFn bcast) {
  CollArgs r = a;
  r.op = Op::kReduce;
  r.root = root;
  r.send_alias = a.rank == root ? a.send_alias : -1;
  reduce(r, b);
  CollArgs c = a;
  c.op = Op::kBcast;
  c.root = root;
  c.send_alias = -1;
  bcast(c, b);
}

// Binomial tree (Thakur et al. §5): binomial reduce to rank 0, binomial
// broadcast from it.
void build_allreduce_reduce_bcast(const CollArgs& a, ScheduleBuilder& b) {
  reduce_then_bcast(a, b, 0, build_reduce_binomial, build_bcast_binomial);
}

}  // namespace hiercoll
