#include <algorithm>

#include "algorithms/allgather.h"

namespace hiercoll {

// Recursive doubling (Thakur et al. §4.1.1).  Before the step of distance
// `mask`, member r holds the blocks of its aligned group of `mask` members
// [r & ~(mask-1), +mask) (clamped to p) and exchanges them with r ^ mask.
// Non-power-of-two (the paper's treatment): when the partner half of my
// aligned 2*mask group is only partly populated, only the first `have`
// members of my half found a partner; they pass the partner half's blocks on
// to the rest of my half "in the peer (power-of-two) set in a logarithmic
// fashion": at distances mask/2, ..., 1, in every aligned group of 2t
// members the first `have` hold the data and each holder x < t sends it to
// x + t if that one lacks it.  Afterwards every aligned t-group's first
// min(have, t) members hold it, so after t = 1 all do.  At most
// 2 ceil(lg p) steps in all.
void allgather_recursive_doubling_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf buf) {
  const int p = g.size, me = g.me;
  auto blocks = [&](int first, int last) { return L.range(buf, first, std::min(last, p)); };
  for (int mask = 1; mask < p; mask <<= 1) {
    const int partner = me ^ mask;
    const int mine = me & ~(mask - 1), theirs = partner & ~(mask - 1);
    if (partner < p) {
      send_nonempty(b, g.peer(partner), blocks(mine, mine + mask));
      recv_nonempty(b, g.peer(partner), blocks(theirs, theirs + mask));
    }
    // Only a lower half can face a partly populated upper half.
    if (theirs < mine || theirs >= p || theirs + mask <= p) continue;
    const int have = p - theirs;  // members of my half that got the upper half
    const Span upper = blocks(theirs, p);
    for (int t = mask >> 1; t > 0; t >>= 1) {
      const int x = me & (2 * t - 1);  // my index in my aligned group of 2t
      if (x < t && x < have && x + t >= have) send_nonempty(b, g.peer(me + t), upper);
      if (x >= t && x - t < have && x >= have) recv_nonempty(b, g.peer(me - t), upper);
    }
  }
}

void build_allgather_recursive_doubling(const CollArgs& a, ScheduleBuilder& b) {
  build_allgather_with(a, b, allgather_recursive_doubling_blocks);
}

}  // namespace hiercoll
