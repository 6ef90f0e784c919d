#include <algorithm>
#include <vector>

#include "algorithms/allgather.h"

namespace hiercoll {

// Bruck's concatenation allgather (Thakur et al. §4.1.2).  Member i keeps
// the blocks it has in Tmp in the order i, i+1, ... (mod p).  In the step of
// distance d = 2^k it sends its first min(d, p - d) blocks to i - d and
// appends the same number received from i + d, so every message is
// contiguous; the last step of a non-power-of-two p carries p - 2^floor(lg p)
// blocks.  After ceil(lg p) steps Tmp holds all blocks shifted up by i, and a
// local rotation puts them in place.
void allgather_bruck_blocks(ScheduleBuilder& b, const Group& g, const Blocks& L, Buf buf) {
  const int p = g.size, me = g.me;
  if (p == 1) return;
  std::vector<int64_t> sizes(p);
  for (int j = 0; j < p; ++j) sizes[j] = L.n[(me + j) % p];
  Blocks R = blocks_of_sizes(sizes);  // the rotated layout, placed in Tmp
  const Span t = b.tmp(R.total());
  for (int64_t& off : R.off) off += t.off;
  b.copy(L.span(buf, me), R.span(Buf::kTmp, 0));
  for (int d = 1; d < p; d <<= 1) {
    const int cnt = std::min(d, p - d);
    send_nonempty(b, g.peer((me - d + p) % p), R.range(Buf::kTmp, 0, cnt));
    recv_nonempty(b, g.peer((me + d) % p), R.range(Buf::kTmp, d, d + cnt));
  }
  // Tmp block j is block me + j: [1, p - me) goes after mine, the rest before.
  b.copy(R.range(Buf::kTmp, 1, p - me), L.range(buf, me + 1, p));
  b.copy(R.range(Buf::kTmp, p - me, p), L.range(buf, 0, me));
}

void build_allgather_bruck(const CollArgs& a, ScheduleBuilder& b) { build_allgather_with(a, b, allgather_bruck_blocks); }

}  // namespace hiercoll
