// Arrival-order trees (Vadhiyar, Fagg, Dongarra, "Automatically tuned
// collective communications", §5): a rooted collective whose processes take
// their places in the chosen algorithm's tree in the order they enter the
// call, so late processes end up where they delay the fewest others.
//
// The tree is the static algorithm's own schedule, generated once for every
// POSITION (a virtual rank; position 0 is the root): the data phase of
// position v is the static schedule of rank v with root 0, its peers
// positions.  At run time the root hands positions out in FILL order as
// start messages arrive, and executors map a step's position to the real
// rank holding it (Relabelling) -- a step whose position is not taken yet
// waits for it.  So one description per algorithm serves both the static
// and the dynamic method.
//
// Data indexed by rank (the root's blocks in gather and scatter) is made
// position-indexed at the root: the root's schedule works on a scratch copy
// in position order, and copies between it and the user's buffer carry the
// position in Step::peer, which executors turn into the block of the rank
// holding it.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/registry.h"
#include "schedule/schedule.h"

namespace hiercoll {

// Depth first (the paper's better one) fills a whole subtree before the
// next, larger subtrees first, so the last arrivals are leaves of the
// smallest subtrees; breadth first fills the tree level by level.
enum class FillOrder : uint8_t { kDepthFirst, kBreadthFirst };

// Which operations can run in arrival order: rooted ones whose result does
// not depend on which process sits where (reduce: commutative operations
// only -- a reduction over permuted positions would combine out of rank
// order).
bool arrival_order_applies(const CollArgs& a);

struct ArrivalTree {
  int p = 1;
  std::vector<Schedule> at;              // the schedule of each position
  std::vector<int> fill;                 // positions in the order processes take them; fill[0] == 0
  std::vector<int> fill_index;           // position -> its index in fill
  std::vector<std::vector<int>> peers;   // distinct peer positions of each position
  // A hierarchical tree (arrival/hier_arrival_tree.h) places whole nodes:
  // position k * per_node + j is index j of node position k, index 0 leads
  // it.  A node takes the next node position in `node_fill` when the first
  // of its processes arrives, which leads it; its later arrivals take its
  // next indices in `local_fill`.  `fill` is then node by node.  0: flat.
  int per_node = 0;
  std::vector<int> node_fill, local_fill;
  // Whether the schedules form a tree (p - 1 pairs talk): only then does
  // the order of positions decide who waits for whom.  Algorithms where
  // everyone exchanges with everyone (scatter-allgather bcast,
  // Rabenseifner's reduce) gain nothing from it.
  bool is_tree() const;
};

// The schedules of every position for algorithm `a` on call `args` (the
// calling rank's; its rank and root only say which position gets the
// root's buffers: position 0's schedule is exact only at the root).
ArrivalTree build_arrival_tree(const Algorithm& a, const CollArgs& args, FillOrder order);
// The tree over given position schedules (`at[v]`: position v's, peers
// positions), flat (per_node 0) or in nodes of per_node positions.
ArrivalTree arrival_tree_of(std::vector<Schedule> at, FillOrder order, int per_node = 0);

// Which position each arrival takes, in the order they arrive: the next in
// fill order, or on a hierarchical tree the next of its node's.  The root's
// protocol side keeps one per call; tests replay arrival orders with it.
class Placement {
 public:
  // `root` holds position 0; `node_of` (a hierarchical tree only): every
  // rank's node, nodes with per_node ranks each.
  Placement(const ArrivalTree& t, int root, const std::vector<int>* node_of = nullptr);
  int take(int rank);

 private:
  const ArrivalTree& t_;
  const std::vector<int>* node_of_;
  int placed_ = 1;               // flat: positions handed out
  int nodes_placed_ = 1;         // hierarchical: node positions handed out
  std::vector<int> node_pos_;    // real node -> its node position (-1: none yet)
  std::vector<int> next_local_;  // real node -> indices taken
};

// Position -> real rank, learned as processes arrive (-1: not yet), and the
// steps waiting for a position.  Both executors keep one per rank.
class Relabelling {
 public:
  explicit Relabelling(int p = 0) { reset(p); }
  void reset(int p);
  int rank(int pos) const { return rank_[pos]; }
  // Records who holds `pos`; returns the steps that waited for it.
  std::vector<int32_t> assign(int pos, int rank);
  void park(int pos, int32_t step) { parked_[pos].push_back(step); }

 private:
  std::vector<int> rank_;
  std::vector<std::vector<int32_t>> parked_;
};

// The position a step waits for before it can run (-1: none): a message's
// peer, or the position of a relabelled copy's block.
inline int step_position(const Step& st) { return st.peer; }

// A relabelled copy (Step::peer >= 0) with its user-side block, the side
// that is not scratch, made the block of `rank`, which holds the position.
inline void relabel_copy(Span* src, Span* dst, int rank) { (src->buf == Buf::kTmp ? dst : src)->off = rank; }

}  // namespace hiercoll
