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

// One rank's part, in the order its steps are listed: its blocks out to
// the node's leaders, the blocks of the nodes it leads to in, its bundles
// out and in, the blocks it leads from out to the node, its own in.
class LeaderSchedule {
 public:
  LeaderSchedule(const HierCall& c, ScheduleBuilder& b)
      : a_(c.args), L_(c.layout), b_(b), k_(L_.node_of[a_.rank]), mine_(L_.node_ranks[k_]),
        q_(static_cast<int>(mine_.size())), me_(local_index()), R_(node_rows(a_, q_)), S_(send_blocks(a_)),
        U_(all_blocks(a_)), led_(led_ranks(L_, q_, me_)), piece_(q_), got_(L_.num_nodes) {}

  void build() {
    send_to_leaders();
    receive_led_blocks();
    send_bundles();
    receive_bundles();
    hand_out(bundle_positions());
    receive_mine();
  }

 private:
  int local_index() const {
    int me = 0;
    while (mine_[me] != a_.rank) ++me;
    return me;
  }

  // To each local rank, my blocks for the nodes it leads to.
  void send_to_leaders() {
    for (int l = 0; l < q_; ++l)
      if (l != me_)
        move_blocks(b_, mine_[l], S_, Buf::kSend, led_ranks(L_, q_, l), [&](int j) { return R_.send(me_, j); }, true);
  }

  // From each local rank, its blocks for the nodes I lead to (mine stay in
  // Send): block j of local rank i at piece_[i][t], t its index in led_.
  void receive_led_blocks() {
    for (int i = 0; i < q_; ++i) {
      if (i == me_) continue;
      int64_t total = 0;
      for (int j : led_) piece_[i].push_back(total), total += R_.send(i, j);
      const Span in = b_.tmp(total);
      for (int64_t& off : piece_[i]) off += in.off;
      if (total > 0) b_.recv(mine_[i], in);
    }
  }

  // The bundles I send, to node m's rank that leads from my node; the one
  // to my own node (m = k) is the one I receive from it.
  void send_bundles() {
    size_t first = 0;  // node m's first rank in led_
    for (int m = me_; m < L_.num_nodes; m += q_) {
      const std::vector<int>& there = L_.node_ranks[m];
      int64_t total = 0;
      for (int i = 0; i < q_; ++i)
        for (int j : there) total += R_.send(i, j);
      const Span bundle = b_.tmp(total);
      int64_t at = bundle.off;
      for (int i = 0; i < q_; ++i)
        for (size_t t = 0; t < there.size(); ++t) {
          const Span to{Buf::kTmp, at, R_.send(i, there[t])};
          b_.copy(i == me_ ? S_.span(Buf::kSend, there[t]) : Span{Buf::kTmp, piece_[i][first + t], to.n}, to);
          at += to.n;
        }
      const int receiver = there[k_ % there.size()];
      if (receiver == a_.rank)
        got_[m] = bundle;
      else if (total > 0)
        b_.send(receiver, bundle);
      first += there.size();
    }
  }

  // The bundles I receive: from node m's rank that leads to my node.
  void receive_bundles() {
    for (int m = me_; m < L_.num_nodes; m += q_) {
      if (m == k_) continue;
      const std::vector<int>& there = L_.node_ranks[m];
      int64_t total = 0;
      for (int s : there)
        for (int t = 0; t < q_; ++t) total += R_.recv(t, s);
      got_[m] = b_.tmp(total);
      if (total > 0) b_.recv(there[k_ % there.size()], got_[m]);
    }
  }

  // Where block (s, t) lies in the bundles: s in led_ order, t local.
  std::vector<int64_t> bundle_positions() const {
    std::vector<int64_t> at(led_.size() * q_);
    for (int m = me_, u = 0; m < L_.num_nodes; m += q_) {
      int64_t off = got_[m].off;
      for (int s : L_.node_ranks[m])
        for (int t = 0; t < q_; ++t, ++u) at[u] = off, off += R_.recv(t, s);
    }
    return at;
  }

  // To each local rank t, its blocks from the nodes I lead from, in led_'s
  // order (mine to their places in Recv).
  void hand_out(const std::vector<int64_t>& at) {
    for (int t = 0; t < q_; ++t) {
      int64_t total = 0;
      for (int s : led_) total += R_.recv(t, s);
      const Span out = t == me_ ? Span{} : b_.tmp(total);
      int64_t to = out.off;
      for (size_t u = 0; u < led_.size(); ++u) {
        const Span from{Buf::kTmp, at[u * q_ + t], R_.recv(t, led_[u])};
        b_.copy(from, t == me_ ? U_.span(Buf::kRecv, led_[u]) : Span{Buf::kTmp, to, from.n});
        to += from.n;
      }
      if (t != me_ && total > 0) b_.send(mine_[t], out);
    }
  }

  // From each local rank, my blocks from the nodes it leads from.
  void receive_mine() {
    for (int l = 0; l < q_; ++l)
      if (l != me_)
        move_blocks(b_, mine_[l], U_, Buf::kRecv, led_ranks(L_, q_, l), [&](int s) { return R_.recv(me_, s); }, false);
  }

  const CollArgs& a_;
  const Layout& L_;
  ScheduleBuilder& b_;
  const int k_;
  const std::vector<int>& mine_;
  const int q_, me_;
  const NodeRows R_;
  const Blocks S_, U_;
  const std::vector<int> led_;
  std::vector<std::vector<int64_t>> piece_;
  std::vector<Span> got_;
};

}  // namespace

void build_hier_alltoall_leaders(const HierCall& c, ScheduleBuilder& b) { LeaderSchedule(c, b).build(); }

}  // namespace hiercoll
