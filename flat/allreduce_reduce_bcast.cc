#include "flat/allreduce.h"
#include "flat/bcast.h"
#include "flat/reduce.h"

namespace hiercoll {

// Binomial tree (Thakur et al. §5): reduce to rank 0, then broadcast from
// it, by composing the two generators.  In place only rank 0's reduce is
// in place (reduce's convention); the other ranks' reduce reads Send, which
// the builder knows aliases Recv, so the broadcast's writes wait for it.
void build_allreduce_reduce_bcast(const CollArgs& a, ScheduleBuilder& b) {
  CollArgs r = a;
  r.op = Op::kReduce;
  r.root = 0;
  r.send_alias = a.rank == 0 ? a.send_alias : -1;
  build_reduce_binomial(r, b);
  CollArgs c = a;
  c.op = Op::kBcast;
  c.root = 0;
  c.send_alias = -1;
  build_bcast_binomial(c, b);
}

}  // namespace hiercoll
