// Arrival-order trees of the hierarchical compositions (the
// autotuning paper's §5 on top of the MPICH2 compositions): the
// composition's own schedules, built on the canonical layout of the call's
// shape -- nodes of `per_node` consecutive positions, position 0 the root --
// are the schedules of the positions (arrival/arrival_order.h).  At run time a
// node takes its place among the leaders as its first process arrives, and
// that process leads it; so a late node is placed where it delays the
// fewest others, a late process of a node is not its leader, and segments
// pipeline through the levels as in the static composition.
#pragma once

#include "arrival/arrival_order.h"
#include "hier/hier_compose.h"

namespace hiercoll {

// The layout of `size` ranks in nodes of `per_node` consecutive ranks.
Layout consecutive_layout(int size, int per_node);

// The tree of composition `ch` for the call (its rank and root say which
// position gets the root's buffers, as for build_arrival_tree) in nodes of
// `per_node`.  Unusable (p == 0) unless every message between two nodes
// is between their leaders (what lets a whole node take one node
// position) and the socket level is not used.
ArrivalTree build_hier_arrival_tree(const HierChoice& ch, const CollArgs& args, int per_node, FillOrder order);

}  // namespace hiercoll
