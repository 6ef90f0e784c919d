#include "algorithms/rabenseifner.h"

#include "algorithms/allgather.h"  // send_nonempty / recv_nonempty

namespace hiercoll {

namespace {

// One exchange of recursive vector halving: this member keeps pieces
// [keep_lo, keep_hi) of its current range and gives the other half to peer
// (whose keep range is exactly this member's give range).
struct HalvingStep {
  int peer;
  int keep_lo, keep_hi, give_lo, give_hi;
};

// The exchanges in reduce-scatter order.  Each step halves the current
// piece range; the member whose bit for the step's distance is 0 keeps the
// lower half.  kDoubling walks distances 1, 2, ..., p/2 (so the final piece
// is the bit reversal of me); kHalving walks p/2, ..., 1 (final piece = me).
std::vector<HalvingStep> halving_steps(int me, int p, Distance d) {
  std::vector<HalvingStep> v;
  int lo = 0, hi = p;
  for (int k = 1; k < p; k <<= 1) {
    const int mask = d == Distance::kDoubling ? k : p / (2 * k);
    const int mid = (lo + hi) / 2;
    HalvingStep s;
    s.peer = me ^ mask;
    if (me & mask) {
      s.keep_lo = mid, s.keep_hi = hi, s.give_lo = lo, s.give_hi = mid;
    } else {
      s.keep_lo = lo, s.keep_hi = mid, s.give_lo = mid, s.give_hi = hi;
    }
    v.push_back(s);
    lo = s.keep_lo;
    hi = s.keep_hi;
  }
  return v;
}

// Pieces [lo, hi) of L, whose offsets are relative to acc.off.
Span pieces(const Blocks& L, Span acc, int lo, int hi) {
  Span s = L.range(acc.buf, lo, hi);
  s.off += acc.off;
  return s;
}

}  // namespace

int pof2_floor(int p) {
  int q = 1;
  while (q * 2 <= p) q *= 2;
  return q;
}

int halving_piece(int me, int p, Distance d) {
  const std::vector<HalvingStep> v = halving_steps(me, p, d);
  return v.empty() ? 0 : v.back().keep_lo;
}

PairFold::PairFold(int p_, bool odd_stays_, int must_stay_)
    : p(p_), pof2(pof2_floor(p_)), r(p_ - pof2_floor(p_)), odd_stays(odd_stays_), must_stay(must_stay_) {}

bool PairFold::stays(int i) const {
  if (!paired(i)) return true;
  if (must_stay >= 0 && paired(must_stay) && (must_stay ^ 1) == i) return false;
  if (i == must_stay) return true;
  return (i & 1) == (odd_stays ? 1 : 0);
}

Group PairFold::subgroup(const Group& g, std::vector<int>* storage) const {
  if (r == 0) return g;
  storage->clear();
  for (int i = 0; i < p; ++i)
    if (stays(i)) storage->push_back(g.peer(i));
  return Group{new_index(g.me), pof2, storage};
}

void pair_fold_return(ScheduleBuilder& b, const Group& g, const PairFold& f, Span acc) {
  if (!f.paired(g.me)) return;
  const int partner = g.peer(g.me ^ 1);
  if (f.stays(g.me))
    send_nonempty(b, partner, acc);
  else
    recv_nonempty(b, partner, acc);
}

// §5.1, Figure 12's first step.  The even member of a pair holds the lower
// rank's data, so its half is combined as mine (op) theirs and the odd
// member's as theirs (op) mine.
Group rabenseifner_fold_in(ScheduleBuilder& b, const Group& g, Span acc, std::vector<int>* storage, int must_stay) {
  const PairFold f(g.size, /*odd_stays=*/false, must_stay);
  if (f.paired(g.me)) {
    const bool even = (g.me & 1) == 0;
    const int partner = g.peer(g.me ^ 1);
    const int64_t h = acc.n / 2;
    const Span first{acc.buf, acc.off, h}, second{acc.buf, acc.off + h, acc.n - h};
    const Span mine = even ? first : second, theirs = even ? second : first;
    send_nonempty(b, partner, theirs);
    const Span in = b.tmp(mine.n);
    recv_nonempty(b, partner, in);
    b.reduce(in, mine, /*src_first=*/!even);
    if (f.stays(g.me))
      recv_nonempty(b, partner, theirs);
    else
      send_nonempty(b, partner, mine);
  }
  return f.subgroup(g, storage);
}

// §5.1: in each step send the half of the current range the partner keeps,
// receive its copy of the half this member keeps and reduce, lower ranks'
// data first.
void reduce_scatter_halving_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Span acc, Distance d) {
  const std::vector<HalvingStep> steps = halving_steps(g.me, g.size, d);
  if (steps.empty()) return;
  const Span in = b.tmp(pieces(L, acc, steps[0].keep_lo, steps[0].keep_hi).n);
  for (const HalvingStep& s : steps) {
    const Span keep = pieces(L, acc, s.keep_lo, s.keep_hi);
    send_nonempty(b, g.peer(s.peer), pieces(L, acc, s.give_lo, s.give_hi));
    const Span got{in.buf, in.off, keep.n};
    recv_nonempty(b, g.peer(s.peer), got);
    b.reduce(got, keep, /*src_first=*/s.peer < g.me);
  }
}

// §5.1 "Allreduce": the reduce-scatter's exchanges in reverse order, each
// member sending the range it kept and receiving the range it gave.
void allgather_doubling_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Span acc, Distance d) {
  const std::vector<HalvingStep> steps = halving_steps(g.me, g.size, d);
  for (auto s = steps.rbegin(); s != steps.rend(); ++s) {
    send_nonempty(b, g.peer(s->peer), pieces(L, acc, s->keep_lo, s->keep_hi));
    recv_nonempty(b, g.peer(s->peer), pieces(L, acc, s->give_lo, s->give_hi));
  }
}

// §5.1 "Reduce": the same reversed exchanges, one way only.  Relative to
// the root (vr = me ^ root, which keeps every pair), a member whose vr has
// the step's bit set sends what it has gathered and is done; the others
// receive.
void gather_doubling_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Span acc, int root, Distance d) {
  const std::vector<HalvingStep> steps = halving_steps(g.me, g.size, d);
  const int vr = g.me ^ root;
  for (auto s = steps.rbegin(); s != steps.rend(); ++s) {
    if (vr & (g.me ^ s->peer)) {
      send_nonempty(b, g.peer(s->peer), pieces(L, acc, s->keep_lo, s->keep_hi));
      return;
    }
    recv_nonempty(b, g.peer(s->peer), pieces(L, acc, s->give_lo, s->give_hi));
  }
}

}  // namespace hiercoll
