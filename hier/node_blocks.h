// Every rank's block of a v-variant packed node by node (nodes in order,
// ranks ascending inside a node), the form in which node-aggregated
// compositions move them: a node's blocks are then one message between
// leaders whatever the user's displacements.
#pragma once

#include <cstdint>

#include "flat/blocks.h"
#include "flat/builder.h"
#include "topo/topology.h"

namespace hiercoll {

struct NodeBlocks {
  Blocks ranks;  // rank j's block (U's sizes)
  Blocks nodes;  // node k's blocks, one span
  Span all;      // every block
  Buf buf;       // where they lie
};

// The packing's offsets from `start`, in `buf` (all.n: the total).
NodeBlocks node_order(const Layout& L, const Blocks& U, Buf buf, int64_t start);
// Node k's part of the packing in fresh scratch of just its size (leaders
// that pass their node's blocks on): only node k's ranks' offsets hold.
NodeBlocks node_part(ScheduleBuilder& b, const Layout& L, const Blocks& U, int k);

// Where the user's blocks U in `user` already lie that way (consecutive
// placement, back-to-back displacements) the packing is `user` itself,
// saving a copy in and out; else fresh scratch (Buf::kTmp) of their total.
NodeBlocks pack_by_node(ScheduleBuilder& b, const Layout& L, const Blocks& U, Buf user);
// Whether pack_by_node works in the user's buffer.
bool packs_in_place(const Layout& L, const Blocks& U);

}  // namespace hiercoll
