// Binomial-tree reduce (Thakur et al. §4.5; MPICH's combining order).
// Relative rank v receives the partial results of its children v + 1,
// v + 2, v + 4, ... in that order, each covering the next higher range of
// relative ranks, combines them after its own (mine op child), and sends
// the result to its parent v - lowbit(v).  Relative order is rank order
// only when the tree is rooted at rank 0, so a non-commutative operation
// reduces to rank 0, which then sends the result to the root.
#include "algorithms/reduce.h"

namespace hiercoll {

void build_reduce_binomial(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size;
  const int64_t n = a.count;
  if (n == 0) return;
  const int tree_root = a.commutative ? a.root : 0;
  const int v = (a.rank - tree_root + p) % p;
  auto real = [&](int x) { return (x + tree_root) % p; };
  const bool is_root = a.rank == a.root;
  const Span send{Buf::kSend, 0, n}, recv{Buf::kRecv, 0, n};

  // acc: the reduction of my subtree so far; Send until a child's data
  // arrives (in place, the root's Send is its Recv).
  Span acc = is_root && a.send_alias >= 0 ? recv : send;
  Span spare[2];  // children after the first alternate between two buffers
  int k = 0;
  const int bound = v == 0 ? p : (v & -v);
  for (int m = 1; m < bound && v + m < p; m <<= 1) {
    const int child = real(v + m);
    if (acc.buf == Buf::kSend) {
      // First child: receive where the result goes, then put mine first.
      acc = is_root ? recv : b.tmp(n);
      b.recv(child, acc);
      b.reduce(send, acc, /*src_first=*/true);
      continue;
    }
    Span& in = spare[k++ % 2];
    if (in.n == 0) in = b.tmp(n);
    b.recv(child, in);
    // acc = acc op in; a commutative op may compute in op acc, which saves
    // the ordered reduce's copy.
    b.reduce(in, acc, /*src_first=*/a.commutative);
  }
  if (v != 0) b.send(real(v - (v & -v)), acc);

  if (tree_root != a.root) {
    if (a.rank == tree_root) b.send(a.root, acc);
    if (is_root) b.recv(tree_root, recv);
  } else if (is_root && acc.buf == Buf::kSend) {
    b.copy(send, recv);  // p == 1
  }
}

}  // namespace hiercoll
