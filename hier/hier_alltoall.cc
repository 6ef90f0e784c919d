// Node-aware alltoall (node aggregation, Bienz et al.): every rank sends
// its whole Send vector to its node's leader in one message, the leaders
// exchange one bundle per pair of nodes (the flat alltoallv among the
// leaders, block m the blocks from my node's ranks to node m's), and each
// leader sends every rank of its node its whole Recv vector in one message.
// So the node pairs exchange N x N messages instead of the ranks' p x p,
// and a rank that does not lead its node sends and receives one message.
// The leader rearranges the blocks in scratch: by destination node, then
// source rank, then destination rank for the bundles (a copy per run of
// consecutive destination ranks), and by destination rank, then source
// rank for each member (a copy per block).  Any layout: nodes of any size,
// any placement (a bundle's blocks follow the nodes' rank lists).
#include <vector>

#include "hier/hier_compose.h"

namespace hiercoll {

namespace {

// Copies src unit idx[t] to dst unit dst_off + t for t in [0, n), one copy
// per run of consecutive source units.
void gather_units(ScheduleBuilder& b, Buf src_buf, int64_t src_off, const std::vector<int>& idx, Buf dst_buf,
                  int64_t dst_off) {
  const int64_t n = static_cast<int64_t>(idx.size());
  for (int64_t t = 0; t < n;) {
    int64_t run = 1;
    while (t + run < n && idx[t + run] == idx[t] + run) ++run;
    b.copy(Span{src_buf, src_off + idx[t], run}, Span{dst_buf, dst_off + t, run});
    t += run;
  }
}

// The leaders' flat alltoallv of one bundle per node pair: node m's of
// q q_m units at q first[m], both ways.
void exchange_bundles(const HierCall& c, ScheduleBuilder& b, const HierGroup& leaders, int q,
                      const std::vector<int64_t>& first, const Span& out, const Span& got) {
  const Layout& L = c.layout;
  if (!leaders.active()) {
    b.copy(out, got);
    return;
  }
  CollArgs sub = c.phase_args(Op::kAlltoallv, leaders, 0);
  for (int m = 0; m < L.num_nodes; ++m) {
    const int64_t bundle = int64_t(q) * L.node_size(m);
    sub.send_counts.push_back(bundle);
    sub.send_displs.push_back(q * first[m]);
    sub.counts.push_back(bundle);
    sub.displs.push_back(q * first[m]);
  }
  sub.count = sub.counts[leaders.me];
  const Algorithm& alg = c.phase_algorithm(/*inter=*/true, &sub);
  run_phase(b, leaders, alg, sub, Span{Buf::kTmp, out.off, 0}, Span{Buf::kTmp, got.off, 0}, -1);
}

// Member t's Recv vector: from source s (node m, index i) the unit at
// got.off + q first[m] + i q + t; the leader's own straight into Recv.
void hand_out(ScheduleBuilder& b, const Layout& L, const CollArgs& a, int q, const std::vector<int64_t>& first,
              const Span& got) {
  const std::vector<int>& mine = L.node_ranks[L.node_of[a.rank]];
  const int p = a.size;
  for (int t = 0; t < q; ++t) {
    const bool self = mine[t] == a.rank;
    const Span to = self ? Span{Buf::kRecv, 0, p} : b.tmp(p);
    for (int m = 0; m < L.num_nodes; ++m) {
      const std::vector<int>& src = L.node_ranks[m];
      for (size_t i = 0; i < src.size(); ++i)
        b.copy(Span{Buf::kTmp, got.off + q * first[m] + int64_t(i) * q + t, 1}, Span{to.buf, to.off + src[i], 1});
    }
    if (!self) b.send(mine[t], to);
  }
}

}  // namespace

void build_hier_alltoall(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const Hierarchy h = c.hierarchy(0);
  const HierGroup& leaders = h.levels[0];
  const HierGroup& node = h.levels[1];
  const int p = a.size;
  const int leader = node.ranks[node.root];
  if (a.rank != leader) {
    b.send(leader, Span{Buf::kSend, 0, p});
    b.recv(leader, Span{Buf::kRecv, 0, p});
    return;
  }
  const int k = L.node_of[a.rank];
  const std::vector<int>& mine = L.node_ranks[k];  // node.ranks: ascending
  const int q = static_cast<int>(mine.size());
  std::vector<int64_t> first(L.num_nodes + 1, 0);  // node m's first position in node order
  for (int m = 0; m < L.num_nodes; ++m) first[m + 1] = first[m] + L.node_size(m);
  // The members' Send vectors, member i's at in.off + i p (mine stays in Send).
  const Span in = b.tmp(int64_t(q) * p);
  for (int i = 0; i < q; ++i)
    if (mine[i] != a.rank) b.recv(mine[i], Span{Buf::kTmp, in.off + int64_t(i) * p, p});
  auto source = [&](int i, Buf* buf, int64_t* off) {
    *buf = mine[i] == a.rank ? Buf::kSend : Buf::kTmp;
    *off = mine[i] == a.rank ? 0 : in.off + int64_t(i) * p;
  };
  // Bundles: node m's at out.off + q first[m], member i's blocks for node m
  // at + i q_m, in node m's rank order.
  const Span out = b.tmp(int64_t(q) * p);
  for (int m = 0; m < L.num_nodes; ++m) {
    const int64_t qm = L.node_size(m);
    for (int i = 0; i < q; ++i) {
      Buf buf;
      int64_t off;
      source(i, &buf, &off);
      gather_units(b, buf, off, L.node_ranks[m], Buf::kTmp, out.off + q * first[m] + i * qm);
    }
  }
  // From node m: its members' blocks for my node's ranks, source-major.
  const Span got = b.tmp(int64_t(q) * p);
  exchange_bundles(c, b, leaders, q, first, out, got);
  hand_out(b, L, a, q, first, got);
}

}  // namespace hiercoll
