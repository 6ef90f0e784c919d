// A smaller machine of the same kind: the layout with n of its N nodes,
// for costing a candidate whose schedules on the whole layout are too
// large to simulate (decide/derived_cost.h).  Node i of the smaller layout
// has the ranks and the socket pattern of node floor(i N / n); ranks are
// placed as in the layout (consecutive per node, or round robin over the
// nodes; a placement of any other kind becomes consecutive).
#pragma once

#include "topo/topology.h"

namespace hiercoll {

Layout layout_with_nodes(const Layout& L, int nodes);

}  // namespace hiercoll
