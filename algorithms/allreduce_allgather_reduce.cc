#include "algorithms/allgather.h"
#include "algorithms/allreduce.h"
#include "algorithms/reduce.h"

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
  const Blocks L = scratch_vectors(b, p, n);
  b.copy(Span{Buf::kSend, 0, n}, L.span(Buf::kTmp, a.rank));
  allgather_bruck_blocks(b, Group{a.rank, p, nullptr}, L, Buf::kTmp);
  reduce_blocks_in_rank_order(b, L, Buf::kTmp, Span{Buf::kRecv, 0, n});
}

}  // namespace hiercoll
