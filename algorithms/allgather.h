// Allgather algorithms (Thakur, Rabenseifner, Gropp §4.1: recursive doubling
// with the non-power-of-two treatment, Bruck, ring).  The *_blocks forms
// are primitives other algorithms reuse: every rank of group g starts with
// its own block L.span(buf, g.me) and ends with every block of L in buf.
// L's blocks must be adjacent and in group order (Blocks::range); they may
// be uneven and empty (empty messages are skipped on both sides, which
// both know since they share L).
#pragma once

#include "algorithms/blocks.h"
#include "algorithms/call_blocks.h"
#include "algorithms/group.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

void allgather_recursive_doubling_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf buf);
void allgather_ring_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf buf);
// Bruck: works in a rotated copy in Tmp and rotates back into buf at the end.
void allgather_bruck_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf buf);

void build_allgather_recursive_doubling(const CollArgs& a, ScheduleBuilder& b);
void build_allgather_bruck(const CollArgs& a, ScheduleBuilder& b);
void build_allgather_ring(const CollArgs& a, ScheduleBuilder& b);
// Binomial gather to rank 0, then binomial broadcast (Vadhiyar, Fagg,
// Dongarra, Table 1).
void build_allgather_gather_bcast(const CollArgs& a, ScheduleBuilder& b);

// The whole-communicator allgather(v) on top of a blocks primitive: my
// block goes from Send to its place in Recv (a no-op in place), then the
// primitive runs on the call's blocks in Recv.  Allgatherv blocks that are
// not back to back in rank order (gaps, displacements out of order) are
// gathered packed in Tmp and copied to their places at the end.
using AllgatherBlocksFn = void (*)(ScheduleBuilder&, const Group&, const Blocks&, Buf);
void build_allgather_with(const CollArgs& a, ScheduleBuilder& b, AllgatherBlocksFn fn);

}  // namespace hiercoll
