#include <vector>

#include "algorithms/gather_scatter.h"
#include "algorithms/reduce.h"

namespace hiercoll {

Blocks scratch_vectors(ScheduleBuilder& b, int p, int64_t n) {
  Blocks L = blocks_of_sizes(std::vector<int64_t>(p, n));
  const int64_t base = b.tmp(L.total()).off;
  for (int64_t& off : L.off) off += base;
  return L;
}

void reduce_blocks_in_rank_order(ScheduleBuilder& b, const Blocks& L, Buf buf, Span dst) {
  b.copy(L.span(buf, 0), dst);
  for (int i = 1; i < L.size(); ++i) b.reduce(L.span(buf, i), dst, /*src_first=*/false);
}

// Gather followed by the operation (Vadhiyar, Fagg, Dongarra, Table 1;
// short vectors): a binomial gather of all p input vectors to the root,
// which reduces them in rank order.  The root needs p * count units of
// scratch; a rank that forwards, its subtree's.
void build_reduce_gather_reduce(const CollArgs& a, ScheduleBuilder& b) {
  if (a.count == 0) return;
  const Group g{a.rank, a.size, nullptr};
  const Blocks L = blocks_of_sizes(std::vector<int64_t>(a.size, a.count));
  const Span send{Buf::kSend, 0, a.count};
  if (a.rank != a.root) {
    binomial_gather_blocks(b, g, a.root, binomial_subtree_scratch(b, L, g, a.root), Buf::kTmp, send);
    return;
  }
  const Blocks all = scratch_vectors(b, a.size, a.count);
  binomial_gather_blocks(b, g, a.root, all, Buf::kTmp, send);
  reduce_blocks_in_rank_order(b, all, Buf::kTmp, Span{Buf::kRecv, 0, a.count});
}

}  // namespace hiercoll
