#include <vector>

#include "flat/allgather.h"
#include "flat/allreduce.h"

namespace hiercoll {

// Allgather followed by the operation (Vadhiyar, Fagg, Dongarra, Table 1;
// for short vectors): every rank gathers all p input vectors into scratch
// (Bruck's allgather, ceil(lg p) steps for any p) and reduces them locally
// in rank order, v0 op v1 op ... op v(p-1), so every rank computes the same
// result and non-commutative operations are exact.  p * count units of
// scratch and (p-1) * count operations on every rank.
void build_allreduce_allgather_reduce(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size;
  const int64_t n = a.count;
  if (n == 0) return;
  Blocks L = blocks_of_sizes(std::vector<int64_t>(p, n));
  const Span all = b.tmp(L.total());
  for (int64_t& off : L.off) off += all.off;
  b.copy(Span{Buf::kSend, 0, n}, L.span(Buf::kTmp, a.rank));
  allgather_bruck_blocks(b, Group{a.rank, p, nullptr}, L, Buf::kTmp);
  const Span result{Buf::kRecv, 0, n};
  b.copy(L.span(Buf::kTmp, 0), result);
  for (int i = 1; i < p; ++i) b.reduce(L.span(Buf::kTmp, i), result, /*src_first=*/false);
}

}  // namespace hiercoll
