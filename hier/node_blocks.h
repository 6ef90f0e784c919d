// Every rank's block of a v-variant packed node by node (nodes in order,
// ranks ascending inside a node), the form in which node-aggregated
// compositions move them: a node's blocks are then one message between
// leaders whatever the user's displacements.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/blocks.h"
#include "schedule/builder.h"
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

// The user's blocks idx of U (units(j) scratch units each) sent to
// (sending) or received from peer in one message: straight from or to the
// user's buffer where they lie back to back in that order, else packed in
// scratch.  The message is the same either way, so the peer need not know
// which.
template <typename Units>
void move_blocks(ScheduleBuilder& b, int peer, const Blocks& U, Buf user, const std::vector<int>& idx, Units units,
                 bool sending) {
  int64_t total = 0;
  bool adjacent = true;
  for (size_t t = 0; t < idx.size(); ++t) {
    total += units(idx[t]);
    if (t > 0 && U.off[idx[t]] != U.off[idx[t - 1]] + U.n[idx[t - 1]]) adjacent = false;
  }
  if (total == 0) return;
  if (adjacent) {
    const Span all{user, U.off[idx.front()], U.off[idx.back()] + U.n[idx.back()] - U.off[idx.front()]};
    sending ? b.send(peer, all) : b.recv(peer, all);
    return;
  }
  const Span packed = b.tmp(total);
  if (!sending) b.recv(peer, packed);
  int64_t at = packed.off;
  for (int j : idx) {
    const Span there{Buf::kTmp, at, units(j)};
    sending ? b.copy(U.span(user, j), there) : b.copy(there, U.span(user, j));
    at += there.n;
  }
  if (sending) b.send(peer, packed);
}

}  // namespace hiercoll
