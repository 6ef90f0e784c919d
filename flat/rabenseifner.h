// Pieces of Rabenseifner's reduce-scatter based reduce and allreduce
// (Thakur, Rabenseifner, Gropp §4.4-4.5, with the paper's non-power-of-two
// treatment), shared by reduce and allreduce.  Commutative operations only.
#pragma once

#include <vector>

#include "flat/blocks.h"
#include "flat/builder.h"
#include "flat/group.h"

namespace hiercoll {

// Non-power-of-two step: with p' the largest power of two <= p and
// r = p - p', ranks pair up as the paper says so that p' ranks remain, each
// holding in `acc` the reduction of its own and (maybe) a dropped rank's
// vector.  Returns the remaining group (members' indices in g, stored in
// *storage); its `me` is -1 on a rank that dropped out.
Group rabenseifner_fold_in(ScheduleBuilder& b, const Group& g, Span acc, std::vector<int>* storage);

// Recursive vector halving / distance doubling reduce-scatter on a
// power-of-two group: afterwards acc holds, at block L.span(g.me), the
// reduction of that block over the group.  L has g.size blocks.
void reduce_scatter_halving_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Span acc);

}  // namespace hiercoll
