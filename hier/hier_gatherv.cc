// Hierarchical (node-aggregated) gatherv and scatterv (the rooted forms of
// Zhu et al.'s two-level collectives): gatherv collects each node's blocks
// at its leader, and the leaders send their node's blocks, one message per
// node, to the root (which leads its own node); scatterv runs the reverse.
// The blocks travel packed in node order (hier/node_blocks.h): at the
// root in its own buffer where they lie that way, else in scratch; at
// other leaders in scratch of their node's size.  Leaders must know their
// members' counts, which MPI gives to the root only: the compositions need
// every count on every rank (kNeedAllCounts, the runtime's count exchange).
// Gather and scatter run the same schedules on their one-unit blocks,
// which every rank knows without an exchange.  The segmented (pipelined)
// compositions pass the node bundles between leaders in pieces of one
// segment, so that a leader forwards a piece as soon as its members' part
// of it has arrived (gather) or its members' part of it as soon as the
// piece has arrived (scatter).
#include <algorithm>
#include <memory>

#include "algorithms/call_blocks.h"
#include "hier/hier_compose.h"
#include "hier/node_blocks.h"

namespace hiercoll {

namespace {

// One rooted v-phase among the leaders: node k's blocks are its count.
void leaders_phase(const HierCall& c, ScheduleBuilder& b, Op op, const HierGroup& leaders, const NodeBlocks& nb,
                   Span node_side, Span root_side) {
  CollArgs sub = c.phase_args(op, leaders, nb.nodes.n[leaders.me]);
  sub.counts = nb.nodes.n;
  sub.displs = nb.nodes.off;
  for (int64_t& off : sub.displs) off -= nb.all.off;
  const Algorithm& alg = c.phase_algorithm(/*inter=*/true, &sub);
  const int64_t largest = *std::max_element(nb.nodes.n.begin(), nb.nodes.n.end());
  const int64_t piece = c.choice.comp->segmented && sub.seg_units > 0 ? sub.seg_units : largest;
  // Piece [from, from + piece) of every node's bundle (empty where a
  // smaller bundle has ended: no message).  At the root its node's piece
  // already lies where the phase's root expects it: the phase's copy of it
  // is onto itself.  (Empty bundles: one phase, of no messages.)
  int64_t from = 0;
  do {
    CollArgs part = sub;
    for (size_t k = 0; k < part.counts.size(); ++k) {
      part.counts[k] = std::clamp<int64_t>(nb.nodes.n[k] - from, 0, piece);
      part.displs[k] += from;
    }
    part.count = part.counts[leaders.me];
    const Span mine{node_side.buf, node_side.off + from, 0};
    if (op == Op::kGatherv)
      run_phase(b, leaders, alg, part, mine, root_side, -1);
    else
      run_phase(b, leaders, alg, part, root_side, mine, -1);
    from += piece;
  } while (from < largest);
}

// Where this rank's node's blocks go: the root's packing, or a leader's
// scratch for its node only.
NodeBlocks packing(const HierCall& c, ScheduleBuilder& b, const Blocks& U, Buf user, int node) {
  if (c.args.rank == c.args.root) return pack_by_node(b, c.layout, U, user);
  return node_part(b, c.layout, U, node);
}

// What both compositions start from on this rank.
struct Rooted {
  Hierarchy h;                         // the root leads its node
  std::shared_ptr<const Blocks> user;  // the user's blocks; leaders only (members send or receive their own)
  bool root;
  int leader;  // of my node
  int node;    // my node's index
  const HierGroup& leaders() const { return h.levels[0]; }
  const HierGroup& members() const { return h.levels[1]; }
};

Rooted rooted(const HierCall& c) {
  const CollArgs& a = c.args;
  Rooted r{c.hierarchy(a.root), nullptr, a.rank == a.root, 0, c.layout.node_of[a.rank]};
  r.leader = r.members().ranks[r.members().root];
  // Members need none: p blocks on each of p ranks would make building
  // quadratic.
  if (a.rank == r.leader) r.user = shared_all_blocks(a);
  return r;
}

// A rank that does not lead its node only sends its block to its leader
// (gatherv) or receives it from there (scatterv): true when that is all.
bool member_part(ScheduleBuilder& b, const Rooted& R, int rank, Span own, Op op) {
  if (rank == R.leader) return false;
  if (op == Op::kGatherv)
    send_nonempty(b, R.leader, own);
  else
    recv_nonempty(b, R.leader, own);
  return true;
}

}  // namespace

void build_hier_gatherv(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Rooted R = rooted(c);
  const bool root = R.root;
  // (In place only at the root, which leads its node.)
  if (member_part(b, R, a.rank, own_block(a, Buf::kSend), Op::kGatherv)) return;
  const Blocks& U = *R.user;
  const Span own = a.send_alias >= 0 ? U.span(Buf::kRecv, a.rank) : own_block(a, Buf::kSend);
  const int k = R.node;
  const HierGroup& leaders = R.leaders();
  const NodeBlocks nb = packing(c, b, U, Buf::kRecv, k);
  const Buf work = nb.buf;
  if (!root || work != Buf::kRecv || a.send_alias < 0) b.copy(own, nb.ranks.span(work, a.rank));
  for (int r : R.members().ranks)
    if (r != a.rank) recv_nonempty(b, r, nb.ranks.span(work, r));
  if (leaders.active())
    leaders_phase(c, b, Op::kGatherv, leaders, nb, Span{work, nb.nodes.off[k], 0}, Span{work, nb.all.off, 0});
  if (!root || work == Buf::kRecv) return;
  for (int j = 0; j < a.size; ++j)
    if (U.n[j] > 0 && (j != a.rank || a.send_alias < 0)) b.copy(nb.ranks.span(work, j), U.span(Buf::kRecv, j));
}

void build_hier_scatterv(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Rooted R = rooted(c);
  const Span own = own_block(a, Buf::kRecv);
  if (member_part(b, R, a.rank, own, Op::kScatterv)) return;
  const Blocks& U = *R.user;
  const NodeBlocks nb = packing(c, b, U, Buf::kSend, R.node);
  const Buf work = nb.buf;
  if (R.root && work != Buf::kSend) {
    for (int j = 0; j < a.size; ++j)
      if (U.n[j] > 0) b.copy(U.span(Buf::kSend, j), nb.ranks.span(work, j));
  }
  if (R.leaders().active())
    leaders_phase(c, b, Op::kScatterv, R.leaders(), nb, Span{work, nb.nodes.off[R.node], 0},
                  Span{work, nb.all.off, 0});
  for (int r : R.members().ranks)
    if (r != a.rank) send_nonempty(b, r, nb.ranks.span(work, r));
  // In place, the root's Recv is its block of Send: a copy onto itself.
  if (own.n > 0) b.copy(nb.ranks.span(work, a.rank), own);
}

}  // namespace hiercoll
