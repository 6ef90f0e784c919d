// Broadcast algorithms.  Data: Recv[0, count) on every rank, the root's is
// the input (see flat/coll_args.h).
#pragma once

#include "flat/builder.h"
#include "flat/coll_args.h"

namespace hiercoll {

// Binomial tree (MPICH): ceil(log2 p) rounds, whole message each round.
void build_bcast_binomial(const CollArgs& a, ScheduleBuilder& b);

}  // namespace hiercoll
