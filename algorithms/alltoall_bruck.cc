#include <algorithm>
#include <vector>

#include "algorithms/alltoall.h"

namespace hiercoll {

// Bruck's index algorithm (Thakur et al. §4.3, Figure 7).  Rank i first
// rotates its blocks up by i, so that Tmp block j is the one for rank i + j.
// In step k (distance d = 2^k) it sends every block whose index has bit k
// set to i + d and receives from i - d into the same positions; a block at
// index j thus moves by j in total and reaches its destination.  The blocks
// of one step lie in runs of d, which are packed into one contiguous
// message (and unpacked on arrival) unless they form a single run, as in
// the last step.  Finally Tmp block j came from rank i - j; an inverse
// rotation puts it at Recv[i - j].
void build_alltoall_bruck(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size, me = a.rank;
  alltoall_copy_own(a, b);
  if (p == 1) return;
  const Span t = b.tmp(p);
  auto at = [&](int64_t j, int64_t n) { return Span{Buf::kTmp, t.off + j, n}; };
  b.copy(Span{Buf::kSend, me, p - me}, at(0, p - me));
  b.copy(Span{Buf::kSend, 0, me}, at(p - me, me));
  for (int d = 1; d < p; d <<= 1) {
    const int to = (me + d) % p, from = (me - d + p) % p;
    if (2 * d >= p) {  // one run, [d, p): no packing, but a separate landing area
      const Span in = b.tmp(p - d);  // receiving in place would wait for our own send
      b.send(to, at(d, p - d));
      b.recv(from, in);
      b.copy(in, at(d, p - d));
      continue;
    }
    std::vector<Span> runs;  // the runs of indices with bit k set
    int64_t cnt = 0;
    for (int r = d; r < p; r += 2 * d) {
      runs.push_back(at(r, std::min(d, p - r)));
      cnt += runs.back().n;
    }
    const Span out = b.tmp(cnt), in = b.tmp(cnt);
    int64_t pos = 0;
    for (const Span& s : runs) {
      b.copy(s, Span{Buf::kTmp, out.off + pos, s.n});
      pos += s.n;
    }
    b.send(to, out);
    b.recv(from, in);
    pos = 0;
    for (const Span& s : runs) {
      b.copy(Span{Buf::kTmp, in.off + pos, s.n}, s);
      pos += s.n;
    }
  }
  for (int j = 1; j < p; ++j) b.copy(at(j, 1), Span{Buf::kRecv, (me - j + p) % p, 1});
}

}  // namespace hiercoll
