// Node-aware alltoall(v) with every rank a leader (the multi-leader form of
// hier_alltoall.cc): the bundle of node pair (k, m) is gathered and sent by
// local rank m mod q_k of node k and received and scattered by local rank
// k mod q_m of node m (q_n: node n's ranks), so each rank carries about
// 1/q of its node's traffic instead of one rank all of it.  Inside the
// node every rank sends each local rank one message (its blocks for the
// nodes that rank leads to) and receives one from each (its blocks from
// the nodes that rank leads from); between nodes each node pair exchanges
// one bundle each way.  A bundle holds, by source rank, then destination
// rank, both in their nodes' rank order.  Any layout: nodes of any size,
// any placement.  Alltoallv sizes the messages from its node's rows of
// counts, which the count exchange gives every rank of the node
// (hier/node_counts.h); alltoall's blocks are one unit each.
#include <vector>

#include "algorithms/call_blocks.h"
#include "hier/hier_compose.h"
#include "hier/node_blocks.h"
#include "hier/node_counts.h"

namespace hiercoll {

namespace {

// The ranks of the nodes that local rank l of a node of q ranks leads to
// and from: nodes l, l + q, ..., their ranks in order.
std::vector<int> led_ranks(const Layout& L, int q, int l) {
  std::vector<int> v;
  for (int m = l; m < L.num_nodes; m += q) v.insert(v.end(), L.node_ranks[m].begin(), L.node_ranks[m].end());
  return v;
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
  const NodeRows R = node_rows(a, q);
  const Blocks S = send_blocks(a), U = all_blocks(a);
  const std::vector<int> led = led_ranks(L, q, me);
  // To each local rank, my blocks for the nodes it leads to.
  for (int l = 0; l < q; ++l)
    if (l != me) move_blocks(b, mine[l], S, Buf::kSend, led_ranks(L, q, l), [&](int j) { return R.send(me, j); }, true);
  // From each local rank, its blocks for the nodes I lead to (mine stay in
  // Send): block j of local rank i at piece[i][t], t its index in led.
  std::vector<std::vector<int64_t>> piece(q);
  for (int i = 0; i < q; ++i) {
    if (i == me) continue;
    int64_t total = 0;
    for (int j : led) piece[i].push_back(total), total += R.send(i, j);
    const Span in = b.tmp(total);
    for (int64_t& off : piece[i]) off += in.off;
    if (total > 0) b.recv(mine[i], in);
  }
  // The bundles I send, to node m's rank that leads from my node; the one
  // to my own node (m = k) is the one I receive from it.
  std::vector<Span> got(L.num_nodes);
  size_t first = 0;  // node m's first rank in led
  for (int m = me; m < L.num_nodes; m += q) {
    const std::vector<int>& there = L.node_ranks[m];
    int64_t total = 0;
    for (int i = 0; i < q; ++i)
      for (int j : there) total += R.send(i, j);
    const Span bundle = b.tmp(total);
    int64_t at = bundle.off;
    for (int i = 0; i < q; ++i)
      for (size_t t = 0; t < there.size(); ++t) {
        const Span to{Buf::kTmp, at, R.send(i, there[t])};
        b.copy(i == me ? S.span(Buf::kSend, there[t]) : Span{Buf::kTmp, piece[i][first + t], to.n}, to);
        at += to.n;
      }
    const int receiver = there[k % there.size()];
    if (receiver == a.rank)
      got[m] = bundle;
    else if (total > 0)
      b.send(receiver, bundle);
    first += there.size();
  }
  // The bundles I receive: from node m's rank that leads to my node.
  for (int m = me; m < L.num_nodes; m += q) {
    if (m == k) continue;
    const std::vector<int>& there = L.node_ranks[m];
    int64_t total = 0;
    for (int s : there)
      for (int t = 0; t < q; ++t) total += R.recv(t, s);
    got[m] = b.tmp(total);
    if (total > 0) b.recv(there[k % there.size()], got[m]);
  }
  // Where block (s, t) lies in the bundles: s in led order, t local.
  std::vector<int64_t> at(led.size() * q);
  for (int m = me, u = 0; m < L.num_nodes; m += q) {
    int64_t off = got[m].off;
    for (int s : L.node_ranks[m])
      for (int t = 0; t < q; ++t, ++u) at[u] = off, off += R.recv(t, s);
  }
  // To each local rank t, its blocks from the nodes I lead from, in led's
  // order (mine to their places in Recv).
  for (int t = 0; t < q; ++t) {
    int64_t total = 0;
    for (int s : led) total += R.recv(t, s);
    const Span out = t == me ? Span{} : b.tmp(total);
    int64_t to = out.off;
    for (size_t u = 0; u < led.size(); ++u) {
      const Span from{Buf::kTmp, at[u * q + t], R.recv(t, led[u])};
      b.copy(from, t == me ? U.span(Buf::kRecv, led[u]) : Span{Buf::kTmp, to, from.n});
      to += from.n;
    }
    if (t != me && total > 0) b.send(mine[t], out);
  }
  // From each local rank, my blocks from the nodes it leads from.
  for (int l = 0; l < q; ++l)
    if (l != me) move_blocks(b, mine[l], U, Buf::kRecv, led_ranks(L, q, l), [&](int s) { return R.recv(me, s); }, false);
}

}  // namespace hiercoll
