// Recursive-doubling scan and exscan (MPICH's algorithm; the pattern of
// Thakur et al. §4.1's recursive doubling, with a reduction in each step).
// In the step of distance m, rank r and r ^ m exchange their partial
// reductions P (of r's aligned group of m ranks, clamped to p).  The
// higher rank of the pair folds the lower's P into both its P and its
// result; the lower folds the higher's into P only.  Every combination puts
// the lower ranks' data first, so non-commutative operations are right.
#include "algorithms/scan.h"

#include <vector>

namespace hiercoll {

static void scan_recursive_doubling(const CollArgs& a, ScheduleBuilder& b, bool exclusive) {
  const int p = a.size, me = a.rank;
  const int64_t n = a.count;
  if (n == 0) return;
  const Span send{Buf::kSend, 0, n}, result{Buf::kRecv, 0, n};
  std::vector<int> partners;
  for (int m = 1; m < p; m <<= 1)
    if ((me ^ m) < p) partners.push_back(me ^ m);
  if (partners.empty()) {
    if (!exclusive) b.copy(send, result);
    return;
  }
  // P first: in place, Send is Recv, which the result overwrites.
  const Span partial = b.tmp(n);
  b.copy(send, partial);
  if (!exclusive && a.send_alias < 0) b.copy(send, result);
  bool have_result = !exclusive;  // exscan: Recv holds nothing yet
  Span spare[2];
  for (size_t k = 0; k < partners.size(); ++k) {
    const int peer = partners[k];
    const bool last = k + 1 == partners.size();  // P is not needed after this step
    b.send(peer, partial);
    Span in;
    if (peer < me && !have_result) {
      in = result;  // exscan's first lower partial is its result so far
    } else {
      in = spare[k % 2];
      if (in.n == 0) in = spare[k % 2] = b.tmp(n);
    }
    b.recv(peer, in);
    if (peer < me) {
      if (!last) b.reduce(in, partial, /*src_first=*/true);
      if (have_result) b.reduce(in, result, /*src_first=*/true);
      have_result = true;
    } else if (!last) {
      // P = P op in; a commutative op may compute in op P without the copy.
      b.reduce(in, partial, /*src_first=*/a.commutative);
    }
  }
}

void build_scan_recursive_doubling(const CollArgs& a, ScheduleBuilder& b) { scan_recursive_doubling(a, b, false); }

void build_exscan_recursive_doubling(const CollArgs& a, ScheduleBuilder& b) { scan_recursive_doubling(a, b, true); }

}  // namespace hiercoll
