// Node-aware alltoallv: hier_alltoall.cc's aggregation with blocks of any
// size.  Every rank sends its Send blocks to its node's leader in one
// message, the leaders exchange one bundle per pair of nodes (the flat
// alltoallv among the leaders), and each leader sends every rank of its
// node its Recv blocks in one message.  The leader sizes all of it from its
// members' counts, which the count exchange gives it inside the node
// (hier/node_counts.h): no count crosses the network, and none travels
// between the leaders, since a bundle's size follows from the counts of the
// ranks at both of its ends.  Its scratch holds the members' vectors packed
// in rank order, the bundles (by destination node, then source, then
// destination rank) and, per member, its Recv vector packed in rank order.
// A member's vector goes straight from or to its own buffer where its
// blocks lie back to back in rank order, else through scratch, packed: the
// message is the same either way, so the leader need not know which.
#include <vector>

#include "algorithms/call_blocks.h"
#include "hier/hier_compose.h"
#include "hier/node_blocks.h"
#include "hier/node_counts.h"

namespace hiercoll {

namespace {

// Every index of a p-rank vector, in rank order.
std::vector<int> every_rank(int p) {
  std::vector<int> v(p);
  for (int j = 0; j < p; ++j) v[j] = j;
  return v;
}

}  // namespace

void build_hier_alltoallv(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const int leader = node_counts_leader(L, a.rank);
  const std::vector<int>& mine = L.node_ranks[L.node_of[a.rank]];  // the rows' order
  const int q = static_cast<int>(mine.size());
  const NodeRows R = node_rows(a, a.rank == leader ? q : 1);
  if (a.rank != leader) {
    const std::vector<int> all = every_rank(a.size);
    move_blocks(b, leader, send_blocks(a), Buf::kSend, all, [&](int j) { return R.send(0, j); }, true);
    move_blocks(b, leader, all_blocks(a), Buf::kRecv, all, [&](int j) { return R.recv(0, j); }, false);
    return;
  }
  const int p = a.size;
  const Hierarchy h = c.hierarchy(0);
  const HierGroup& leaders = h.levels[0];
  int me = 0;
  while (mine[me] != a.rank) ++me;
  // Member i's block for rank j: in its packed vector, or (mine) in Send.
  std::vector<int64_t> in_at(size_t(q) * p);
  for (int i = 0; i < q; ++i) {
    if (i == me) continue;
    int64_t total = 0;
    for (int j = 0; j < p; ++j) total += R.send(i, j);
    const Span in = b.tmp(total);
    if (total > 0) b.recv(mine[i], in);
    int64_t at = in.off;
    for (int j = 0; j < p; at += R.send(i, j), ++j) in_at[size_t(i) * p + j] = at;
  }
  const Blocks own_send = send_blocks(a);
  // The bundles: node m's from out.off + out_off[m].
  std::vector<int64_t> out_n(L.num_nodes, 0), out_off(L.num_nodes, 0), got_n(L.num_nodes, 0),
      got_off(L.num_nodes, 0);
  int64_t out_total = 0, got_total = 0;
  for (int m = 0; m < L.num_nodes; ++m) {
    for (int j : L.node_ranks[m])
      for (int i = 0; i < q; ++i) out_n[m] += R.send(i, j), got_n[m] += R.recv(i, j);
    out_off[m] = out_total, got_off[m] = got_total;
    out_total += out_n[m], got_total += got_n[m];
  }
  const Span out = b.tmp(out_total);
  int64_t at = out.off;
  for (int m = 0; m < L.num_nodes; ++m)
    for (int i = 0; i < q; ++i)
      for (int j : L.node_ranks[m]) {
        const Span to{Buf::kTmp, at, R.send(i, j)};
        b.copy(i == me ? own_send.span(Buf::kSend, j) : Span{Buf::kTmp, in_at[size_t(i) * p + j], to.n}, to);
        at += to.n;
      }
  const Span got = b.tmp(got_total);
  if (leaders.active()) {
    CollArgs sub = c.phase_args(Op::kAlltoallv, leaders, 0);
    sub.send_counts = out_n;
    sub.send_displs = out_off;
    sub.counts = got_n;
    sub.displs = got_off;
    sub.count = sub.counts[leaders.me];
    const Algorithm& alg = c.phase_algorithm(/*inter=*/true, &sub);
    run_phase(b, leaders, alg, sub, Span{Buf::kTmp, out.off, 0}, Span{Buf::kTmp, got.off, 0}, -1);
  } else {
    b.copy(out, got);
  }
  // From node m: its members' blocks for my node's ranks, source-major;
  // block (s, t) at got_at[s q + t].
  std::vector<int64_t> got_at(size_t(p) * q);
  at = got.off;
  for (int m = 0; m < L.num_nodes; ++m)
    for (int s : L.node_ranks[m])
      for (int t = 0; t < q; ++t) got_at[size_t(s) * q + t] = at, at += R.recv(t, s);
  const Blocks own_recv = all_blocks(a);
  for (int t = 0; t < q; ++t) {
    int64_t total = 0;
    for (int s = 0; s < p; ++s) total += R.recv(t, s);
    const Span packed = t == me ? Span{} : b.tmp(total);
    int64_t to = packed.off;
    for (int s = 0; s < p; ++s) {
      const Span from{Buf::kTmp, got_at[size_t(s) * q + t], R.recv(t, s)};
      b.copy(from, t == me ? own_recv.span(Buf::kRecv, s) : Span{Buf::kTmp, to, from.n});
      to += from.n;
    }
    if (t != me && total > 0) b.send(mine[t], packed);
  }
}

}  // namespace hiercoll
