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

// A leader's part: its members' vectors in, the bundles packed, exchanged
// with the other leaders, and each member's Recv vector out.
class AlltoallvLeader {
 public:
  AlltoallvLeader(const HierCall& c, ScheduleBuilder& b, const std::vector<int>& mine, const NodeRows& R)
      : c_(c), a_(c.args), L_(c.layout), b_(b), mine_(mine), R_(R), q_(static_cast<int>(mine.size())), p_(a_.size),
        me_(local_index()) {}

  void build() {
    receive_members();
    size_bundles();
    const Span out = pack_bundles();
    const Span got = b_.tmp(got_total_);
    exchange(out, got);
    hand_out(got);
  }

 private:
  int local_index() const {
    int me = 0;
    while (mine_[me] != a_.rank) ++me;
    return me;
  }

  // Member i's block for rank j: in its packed vector, or (mine) in Send.
  void receive_members() {
    in_at_.assign(size_t(q_) * p_, 0);
    for (int i = 0; i < q_; ++i) {
      if (i == me_) continue;
      int64_t total = 0;
      for (int j = 0; j < p_; ++j) total += R_.send(i, j);
      const Span in = b_.tmp(total);
      if (total > 0) b_.recv(mine_[i], in);
      int64_t at = in.off;
      for (int j = 0; j < p_; at += R_.send(i, j), ++j) in_at_[size_t(i) * p_ + j] = at;
    }
  }

  // The bundles: node m's from out.off + out_off_[m], from got.off + got_off_[m].
  void size_bundles() {
    const int n = L_.num_nodes;
    out_n_.assign(n, 0), out_off_.assign(n, 0), got_n_.assign(n, 0), got_off_.assign(n, 0);
    for (int m = 0; m < n; ++m) {
      for (int j : L_.node_ranks[m])
        for (int i = 0; i < q_; ++i) out_n_[m] += R_.send(i, j), got_n_[m] += R_.recv(i, j);
      out_off_[m] = out_total_, got_off_[m] = got_total_;
      out_total_ += out_n_[m], got_total_ += got_n_[m];
    }
  }

  Span pack_bundles() {
    const Blocks own_send = send_blocks(a_);
    const Span out = b_.tmp(out_total_);
    int64_t at = out.off;
    for (int m = 0; m < L_.num_nodes; ++m)
      for (int i = 0; i < q_; ++i)
        for (int j : L_.node_ranks[m]) {
          const Span to{Buf::kTmp, at, R_.send(i, j)};
          b_.copy(i == me_ ? own_send.span(Buf::kSend, j) : Span{Buf::kTmp, in_at_[size_t(i) * p_ + j], to.n}, to);
          at += to.n;
        }
    return out;
  }

  // The flat alltoallv among the leaders, one bundle per node pair.
  void exchange(const Span& out, const Span& got) {
    const Hierarchy h = c_.hierarchy(0);
    const HierGroup& leaders = h.levels[0];
    if (!leaders.active()) {
      b_.copy(out, got);
      return;
    }
    CollArgs sub = c_.phase_args(Op::kAlltoallv, leaders, 0);
    sub.send_counts = out_n_;
    sub.send_displs = out_off_;
    sub.counts = got_n_;
    sub.displs = got_off_;
    sub.count = sub.counts[leaders.me];
    const Algorithm& alg = c_.phase_algorithm(/*inter=*/true, &sub);
    run_phase(b_, leaders, alg, sub, Span{Buf::kTmp, out.off, 0}, Span{Buf::kTmp, got.off, 0}, -1);
  }

  // From node m: its members' blocks for my node's ranks, source-major;
  // block (s, t) at got_at[s q + t].  Each member gets its Recv vector
  // packed in rank order (mine to their places in Recv).
  void hand_out(const Span& got) {
    std::vector<int64_t> got_at(size_t(p_) * q_);
    int64_t at = got.off;
    for (int m = 0; m < L_.num_nodes; ++m)
      for (int s : L_.node_ranks[m])
        for (int t = 0; t < q_; ++t) got_at[size_t(s) * q_ + t] = at, at += R_.recv(t, s);
    const Blocks own_recv = all_blocks(a_);
    for (int t = 0; t < q_; ++t) {
      int64_t total = 0;
      for (int s = 0; s < p_; ++s) total += R_.recv(t, s);
      const Span packed = t == me_ ? Span{} : b_.tmp(total);
      int64_t to = packed.off;
      for (int s = 0; s < p_; ++s) {
        const Span from{Buf::kTmp, got_at[size_t(s) * q_ + t], R_.recv(t, s)};
        b_.copy(from, t == me_ ? own_recv.span(Buf::kRecv, s) : Span{Buf::kTmp, to, from.n});
        to += from.n;
      }
      if (t != me_ && total > 0) b_.send(mine_[t], packed);
    }
  }

  const HierCall& c_;
  const CollArgs& a_;
  const Layout& L_;
  ScheduleBuilder& b_;
  const std::vector<int>& mine_;
  const NodeRows& R_;
  const int q_, p_, me_;
  std::vector<int64_t> in_at_, out_n_, out_off_, got_n_, got_off_;
  int64_t out_total_ = 0, got_total_ = 0;
};

}  // namespace

void build_hier_alltoallv(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const int leader = node_counts_leader(L, a.rank);
  const std::vector<int>& mine = L.node_ranks[L.node_of[a.rank]];  // the rows' order
  const NodeRows R = node_rows(a, a.rank == leader ? static_cast<int>(mine.size()) : 1);
  if (a.rank == leader) {
    AlltoallvLeader(c, b, mine, R).build();
    return;
  }
  // A member: its Send blocks to the leader in one message, its Recv
  // blocks from it in one.
  const std::vector<int> all = every_rank(a.size);
  move_blocks(b, leader, send_blocks(a), Buf::kSend, all, [&](int j) { return R.send(0, j); }, true);
  move_blocks(b, leader, all_blocks(a), Buf::kRecv, all, [&](int j) { return R.recv(0, j); }, false);
}

}  // namespace hiercoll
