// Pieces of the vector halving / distance doubling reduce-scatter based
// reduce and allreduce (Thakur, Rabenseifner, Gropp §5.1, with the paper's
// non-power-of-two treatment), shared by reduce, allreduce (Rabenseifner,
// binary blocks) and reduce_scatter (recursive halving, §4.4).
//
// Conventions of the *_blocks primitives below:
//  - g is a power-of-two group; L has g.size blocks ("pieces") that are
//    adjacent and in vector order; L's offsets are RELATIVE TO acc.off
//    (piece k is units [acc.off + L.off[k], acc.off + L.off[k] + L.n[k]) of
//    acc.buf), so even_blocks(acc.n, g.size) is the usual layout.
//  - Pieces may be empty (count < p); empty messages are skipped on both
//    sides, which both know since they share L.
//  - With Distance::kDoubling (§5.1: partner at distance 1, 2, 4, ...) the
//    reduction keeps rank order: every reduce combines two adjacent rank
//    ranges, lower one first, so NON-COMMUTATIVE operations are fine.  The
//    price: member i ends with piece halving_piece(i) = bit reversal of i,
//    not piece i.  The allgather/gather mirrors below undo exactly that.
//  - With Distance::kHalving (§4.4's recursive halving: partner at distance
//    p/2, p/4, ...) member i ends with piece i, but the combination order is
//    not rank order: commutative operations only.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/blocks.h"
#include "algorithms/group.h"
#include "schedule/builder.h"

namespace hiercoll {

enum class Distance : uint8_t { kDoubling, kHalving };

// Largest power of two <= p (p >= 1).
int pof2_floor(int p);

// The piece of L member `me` of a p-member group holds after
// reduce_scatter_halving_blocks (and starts with in the mirrors below).
int halving_piece(int me, int p, Distance d = Distance::kDoubling);

// The paper's pairing for p not a power of two (§4.4, §5.1): with p' the
// largest power of two <= p and r = p - p', members 2i and 2i+1 (i < r)
// pair up and one of them leaves the rest of the algorithm; the p' that
// stay keep their relative order (new index i < r for pair i, then
// j - r for member j >= 2r), so each stayer stands for a contiguous range
// of ranks and rank order is preserved.  Which member of a pair stays:
// the odd one if odd_stays, else the even one, except that `must_stay`
// (a member index, e.g. reduce's root; -1 for none) always stays.
struct PairFold {
  PairFold(int p, bool odd_stays, int must_stay = -1);
  int p, pof2, r;
  bool odd_stays;
  int must_stay;

  bool paired(int i) const { return i < 2 * r; }
  bool stays(int i) const;
  // Index among the p' stayers of the stayer that stands for member i.
  int stands_for(int i) const { return paired(i) ? i / 2 : i - r; }
  int new_index(int i) const { return stays(i) ? stands_for(i) : -1; }
  // The p' stayers as a group (members' peers stored in *storage); its `me`
  // is -1 on a member that leaves.
  Group subgroup(const Group& g, std::vector<int>* storage) const;
};

// The last step of allreduce-like algorithms: every stayer of a pair sends
// acc to its partner that left, which receives it into acc.
void pair_fold_return(ScheduleBuilder& b, const Group& g, const PairFold& f, Span acc);

// §5.1's first step for p not a power of two (PairFold with the even member
// staying, or `must_stay`).  On entry acc holds the member's input vector
// (halved by count, independently of any layout).  In each pair the even
// member sends the second half of acc to the odd one and the odd member the
// first half to the even one; each reduces its half (rank order kept), then
// the leaver sends its reduced half to the stayer.  Afterwards every stayer
// holds in acc the reduction of its pair's vectors.  Returns the stayers' group (see
// PairFold::subgroup).  A power-of-two group is returned unchanged.
Group rabenseifner_fold_in(ScheduleBuilder& b, const Group& g, Span acc, std::vector<int>* storage,
                           int must_stay = -1);

// Reduce-scatter by recursive vector halving (see the conventions above):
// every member starts with its whole vector in acc and ends with piece
// halving_piece(g.me, g.size, d) of acc reduced over the group.  The rest
// of acc is clobbered.
void reduce_scatter_halving_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Span acc,
                                   Distance d = Distance::kDoubling);

// The mirror of reduce_scatter_halving_blocks with the same `d`: allgather
// by recursive vector doubling (for kDoubling: distance halving, §5.1
// "Allreduce").  Every member starts with piece halving_piece(g.me) in acc
// and ends with all of acc.
void allgather_doubling_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Span acc,
                               Distance d = Distance::kDoubling);

// The other mirror: binomial-tree gather by recursive vector doubling to
// member `root` (§5.1 "Reduce").  Every member starts with piece
// halving_piece(g.me) in acc; `root` ends with all of acc.  Non-roots write
// parts of their own acc only (received pieces they forward).
void gather_doubling_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Span acc, int root,
                            Distance d = Distance::kDoubling);

}  // namespace hiercoll
