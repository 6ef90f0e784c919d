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

#include "flat/call_blocks.h"
#include "hier/hier_compose.h"
#include "hier/node_counts.h"

namespace hiercoll {

namespace {

// The node's rows (hier/node_counts.h): member i's block for (send) or
// from (recv) rank j, in scratch units.
struct Rows {
  std::vector<int64_t> v;
  int p = 0;
  int64_t send(int i, int j) const { return v[size_t(i) * 2 * p + j]; }
  int64_t recv(int i, int j) const { return v[size_t(i) * 2 * p + p + j]; }
  const int64_t* row(int i, bool sending) const { return &v[size_t(i) * 2 * p + (sending ? 0 : p)]; }
};

// The model's and simulator's calls come without the count exchange; their
// counts are alike on every rank, so each of the q members' rows is mine.
Rows rows_of(const CollArgs& a, int q) {
  Rows r{a.node_counts, a.size};
  if (r.v.empty())
    for (int i = 0; i < q; ++i) {
      const std::vector<int64_t> mine = count_row(a, 1, 1);
      r.v.insert(r.v.end(), mine.begin(), mine.end());
    }
  return r;
}

// A vector of blocks U of buffer `user` (units[j] scratch units each) sent
// to or received from peer in one message.
void move_vector(ScheduleBuilder& b, int peer, const Blocks& U, Buf user, const int64_t* units, bool sending) {
  const int p = U.size();
  int64_t total = 0;
  for (int j = 0; j < p; ++j) total += units[j];
  if (total == 0) return;
  if (adjacent_in_order(U)) {
    const Span all = U.range(user, 0, p);
    sending ? b.send(peer, all) : b.recv(peer, all);
    return;
  }
  const Span packed = b.tmp(total);
  if (!sending) b.recv(peer, packed);
  int64_t at = packed.off;
  for (int j = 0; j < p; ++j) {
    const Span there{Buf::kTmp, at, units[j]};
    sending ? b.copy(U.span(user, j), there) : b.copy(there, U.span(user, j));
    at += units[j];
  }
  if (sending) b.send(peer, packed);
}

}  // namespace

void build_hier_alltoallv(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const int leader = node_counts_leader(L, a.rank);
  const std::vector<int>& mine = L.node_ranks[L.node_of[a.rank]];  // the rows' order
  const int q = static_cast<int>(mine.size());
  const Rows R = rows_of(a, a.rank == leader ? q : 1);
  if (a.rank != leader) {
    move_vector(b, leader, send_blocks(a), Buf::kSend, R.row(0, true), true);
    move_vector(b, leader, all_blocks(a), Buf::kRecv, R.row(0, false), false);
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
