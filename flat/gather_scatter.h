// Binomial gather and scatter (Thakur et al.), also used inside other
// algorithms.  Primitives: in group g rooted at group index `root`,
// binomial_scatter_blocks moves block i of L (held in buf at the root) to
// group member i; binomial_gather_blocks moves every member's block i of L
// (in buf at member i) to the root.  Intermediate ranks hold their subtree's
// blocks in buf at the same offsets (callers give a buffer that is large
// enough on every rank: Recv on a full-size buffer, or Tmp).
#pragma once

#include "flat/blocks.h"
#include "flat/builder.h"
#include "flat/coll_args.h"
#include "flat/group.h"

namespace hiercoll {

void binomial_scatter_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf);
void binomial_gather_blocks(ScheduleBuilder& b, const Group& g, int root, const Blocks& L, Buf buf);

void build_gather_binomial(const CollArgs& a, ScheduleBuilder& b);
void build_scatter_binomial(const CollArgs& a, ScheduleBuilder& b);

}  // namespace hiercoll
