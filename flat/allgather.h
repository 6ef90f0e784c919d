// Allgather algorithms (Thakur, Rabenseifner, Gropp §3: recursive doubling
// with the non-power-of-two treatment, Bruck, ring).  The *_blocks forms
// are primitives other algorithms reuse: every rank of group g starts with
// its own block L.span(buf, g.me) and ends with every block of L in buf.
#pragma once

#include "flat/blocks.h"
#include "flat/builder.h"
#include "flat/coll_args.h"
#include "flat/group.h"

namespace hiercoll {

void allgather_recursive_doubling_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf buf);
void allgather_ring_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf buf);

void build_allgather_recursive_doubling(const CollArgs& a, ScheduleBuilder& b);
void build_allgather_bruck(const CollArgs& a, ScheduleBuilder& b);
void build_allgather_ring(const CollArgs& a, ScheduleBuilder& b);

}  // namespace hiercoll
