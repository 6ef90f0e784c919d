#include <algorithm>

#include "algorithms/allgather.h"  // send_nonempty / recv_nonempty
#include "algorithms/reduce_scatter.h"

namespace hiercoll {

// Recursive doubling (Thakur et al. §4.4), any operation.  Before step k
// (distance 2^k) a rank holds, for every block outside its subtree (the
// 2^k ranks that agree with it above bit k), the reduction over its
// subtree; it sends those blocks to its partner and receives the blocks
// outside the partner's subtree, which it reduces in subtree order.  So in
// step k each rank exchanges n - 2^k n/p.  Not a power of two (as MPICH):
// when the partner subtree is cut short, the ranks of this subtree that had
// a partner forward what they received, along a binomial tree inside the
// subtree, to those that had none, before reducing it.
void build_reduce_scatter_recursive_doubling(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size, me = a.rank;
  const Blocks L = blocks_of_sizes(a.counts);
  const Span res = b.tmp(L.total()), in = b.tmp(L.total());  // both laid out as Send
  b.copy(Span{Buf::kSend, 0, L.total()}, res);
  // The blocks outside subtree [root, root + mask): two adjacent ranges.
  auto outside = [&](Span buf, int root, int mask) {
    const int lo = std::min(root, p), hi = std::min(root + mask, p);
    Span lo_part = L.range(buf.buf, 0, lo), hi_part = L.range(buf.buf, hi, p);
    lo_part.off += buf.off;
    hi_part.off += buf.off;
    return std::vector<Span>{lo_part, hi_part};
  };
  for (int mask = 1, bits = 0; mask < p; mask <<= 1, ++bits) {
    const int dst = me ^ mask;
    const int my_root = me >> bits << bits, dst_root = dst >> bits << bits;
    const std::vector<Span> out = outside(res, my_root, mask), got = outside(in, dst_root, mask);
    bool received = false;
    if (dst < p) {
      for (const Span& s : out) send_nonempty(b, dst, s);
      for (const Span& s : got) recv_nonempty(b, dst, s);
      received = true;
    }
    if (dst_root + mask > p) {
      // Ranks [my_root, my_root + completed) got the partner subtree's data.
      const int completed = p - my_root - mask;
      for (int sub = mask >> 1, k = bits; sub > 0; sub >>= 1, --k) {
        const int peer = me ^ sub, tree_root = me >> k << k;
        if (peer > me && me < tree_root + completed && peer >= tree_root + completed) {
          for (const Span& s : got) send_nonempty(b, peer, s);
        } else if (peer < me && peer < tree_root + completed && me >= tree_root + completed) {
          for (const Span& s : got) recv_nonempty(b, peer, s);
          received = true;
        }
      }
    }
    if (received) {
      const std::vector<Span> acc = outside(res, dst_root, mask);
      for (size_t i = 0; i < got.size(); ++i) b.reduce(got[i], acc[i], /*src_first=*/dst_root < my_root);
    }
  }
  b.copy(Span{Buf::kTmp, res.off + L.off[me], a.counts[me]}, Span{Buf::kRecv, 0, a.counts[me]});
}

}  // namespace hiercoll
