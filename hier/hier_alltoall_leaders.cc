// Node-aware alltoall with every rank a leader (the multi-leader form of
// hier_alltoall.cc): the bundle of node pair (k, m) is gathered and sent by
// local rank m mod q_k of node k and received and scattered by local rank
// k mod q_m of node m (q_n: node n's ranks), so each rank carries about
// 1/q of its node's traffic instead of one rank all of it.  Inside the
// node every rank sends each local rank one message (its blocks for the
// nodes that rank leads to) and receives one from each (its blocks from
// the nodes that rank leads from); between nodes each node pair exchanges
// one bundle each way.  A bundle holds, by source rank, then destination
// rank, both in their nodes' rank order.  Any layout: nodes of any size,
// any placement.
#include <vector>

#include "hier/hier_compose.h"

namespace hiercoll {

namespace {

// The ranks of the nodes that local rank l of a node of q ranks leads to
// and from: nodes l, l + q, ..., their ranks in order.
std::vector<int> led_ranks(const Layout& L, int q, int l) {
  std::vector<int> v;
  for (int m = l; m < L.num_nodes; m += q) v.insert(v.end(), L.node_ranks[m].begin(), L.node_ranks[m].end());
  return v;
}

// Whether idx is one run of consecutive units.
bool one_run(const std::vector<int>& idx) {
  for (size_t t = 1; t < idx.size(); ++t)
    if (idx[t] != idx[0] + int(t)) return false;
  return true;
}

// Copies user unit idx[t] to packed unit t (to_packed) or back, one copy per
// run of consecutive units.
void pack_units(ScheduleBuilder& b, Buf user, const std::vector<int>& idx, Span packed, bool to_packed) {
  const int64_t n = static_cast<int64_t>(idx.size());
  for (int64_t t = 0; t < n;) {
    int64_t run = 1;
    while (t + run < n && idx[t + run] == idx[t] + run) ++run;
    const Span u{user, idx[t], run}, p{packed.buf, packed.off + t, run};
    to_packed ? b.copy(u, p) : b.copy(p, u);
    t += run;
  }
}

// The user's units idx sent to (sending) or received from peer in one
// message: straight from or to the user's buffer where they are one run,
// else packed in scratch.
void move_units(ScheduleBuilder& b, int peer, Buf user, const std::vector<int>& idx, bool sending) {
  if (idx.empty()) return;
  if (one_run(idx)) {
    const Span all{user, idx[0], int64_t(idx.size())};
    sending ? b.send(peer, all) : b.recv(peer, all);
    return;
  }
  const Span packed = b.tmp(int64_t(idx.size()));
  if (!sending) b.recv(peer, packed);
  pack_units(b, user, idx, packed, sending);
  if (sending) b.send(peer, packed);
}

}  // namespace

void build_hier_alltoall_leaders(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const int k = L.node_of[a.rank];
  const std::vector<int>& mine = L.node_ranks[k];
  const int q = static_cast<int>(mine.size());
  int me = 0;
  while (mine[me] != a.rank) ++me;
  const std::vector<int> led = led_ranks(L, q, me);
  const int64_t n = static_cast<int64_t>(led.size());
  // To each local rank, my blocks for the nodes it leads to.
  for (int l = 0; l < q; ++l)
    if (l != me) move_units(b, mine[l], Buf::kSend, led_ranks(L, q, l), true);
  // From each local rank, its blocks for the nodes I lead to (mine in Send).
  std::vector<Span> piece(q);
  for (int i = 0; i < q && n > 0; ++i) {
    if (i == me) continue;
    piece[i] = b.tmp(n);
    b.recv(mine[i], piece[i]);
  }
  // The bundles I send, to node m's rank that leads from my node; the one
  // to my own node (m = k) is the one I receive from it.
  std::vector<Span> got(L.num_nodes);
  int64_t pos = 0;  // node m's ranks in led
  for (int m = me; m < L.num_nodes; m += q) {
    const std::vector<int>& there = L.node_ranks[m];
    const int64_t qm = static_cast<int64_t>(there.size());
    const Span bundle = b.tmp(q * qm);
    for (int i = 0; i < q; ++i) {
      const Span to{Buf::kTmp, bundle.off + i * qm, qm};
      if (i == me)
        pack_units(b, Buf::kSend, there, to, true);
      else
        b.copy(Span{Buf::kTmp, piece[i].off + pos, qm}, to);
    }
    const int receiver = there[k % qm];
    if (receiver == a.rank)
      got[m] = bundle;
    else
      b.send(receiver, bundle);
    pos += qm;
  }
  // The bundles I receive: from node m's rank that leads to my node.
  for (int m = me; m < L.num_nodes; m += q) {
    if (m == k) continue;
    const std::vector<int>& there = L.node_ranks[m];
    const int64_t qm = static_cast<int64_t>(there.size());
    got[m] = b.tmp(qm * q);
    b.recv(there[k % qm], got[m]);
  }
  // To each local rank t, its blocks from the nodes I lead from, in led's
  // order: from node m's i-th rank at got[m] + i q + t.
  for (int t = 0; t < q; ++t) {
    const Span out = t == me ? Span{} : b.tmp(n);
    int64_t at = out.off;
    for (int m = me; m < L.num_nodes; m += q)
      for (int i = 0; i < L.node_size(m); ++i) {
        const Span from{Buf::kTmp, got[m].off + i * q + t, 1};
        b.copy(from, t == me ? Span{Buf::kRecv, L.node_ranks[m][i], 1} : Span{Buf::kTmp, at++, 1});
      }
    if (t != me && n > 0) b.send(mine[t], out);
  }
  // From each local rank, my blocks from the nodes it leads from.
  for (int l = 0; l < q; ++l)
    if (l != me) move_units(b, mine[l], Buf::kRecv, led_ranks(L, q, l), false);
}

}  // namespace hiercoll
