#include "algorithms/allgather.h"
#include "algorithms/bcast.h"
#include "algorithms/gather_scatter.h"

namespace hiercoll {

// Gather followed by broadcast (Vadhiyar, Fagg, Dongarra, Table 1): a
// binomial gather of every block to rank 0, then a binomial broadcast of
// all p blocks from it.  In place (Send is Recv[rank]) rank 0's gather is
// in place; the other ranks' gather reads their block of Recv, which the
// builder knows, so the broadcast's writes wait for it.
void build_allgather_gather_bcast(const CollArgs& a, ScheduleBuilder& b) {
  CollArgs g = a;
  g.op = Op::kGather;
  g.root = 0;
  build_gather_binomial(g, b);
  CollArgs c = a;
  c.op = Op::kBcast;
  c.root = 0;
  c.count = a.size;
  c.send_alias = -1;
  build_bcast_binomial(c, b);
}

}  // namespace hiercoll
