// The levels of the hierarchy as groups, and running a flat phase on one.
#include <algorithm>

#include "algorithms/trees.h"
#include "hier/hier_compose.h"

namespace hiercoll {

namespace {

int index_in(const std::vector<int>& v, int x) {
  return static_cast<int>(std::find(v.begin(), v.end(), x) - v.begin());
}

int pick(const std::vector<int>& members, LeaderRule rule) {
  return rule == LeaderRule::kLowest ? members.front() : members.back();
}

}  // namespace

Hierarchy make_hierarchy(const Layout& L, int rank, int root, bool sockets, LeaderRule rule) {
  const int root_node = L.node_of[root];
  auto node_leader = [&](int n) { return n == root_node ? root : pick(L.node_ranks[n], rule); };
  Hierarchy h;
  HierGroup top;
  top.ranks.reserve(L.num_nodes);
  for (int n = 0; n < L.num_nodes; ++n) top.ranks.push_back(node_leader(n));
  top.root = root_node;
  const int node = L.node_of[rank];
  const int leader = node_leader(node);
  if (rank == leader) top.me = node;
  h.levels.push_back(std::move(top));

  const std::vector<int>& members = L.node_ranks[node];
  if (!sockets) {
    HierGroup g;
    g.ranks = members;
    g.me = L.local_rank[rank];
    g.root = L.local_rank[leader];
    h.levels.push_back(std::move(g));
    return h;
  }
  // Sockets are numbered densely per node in order of their lowest rank.
  int nsock = 0;
  for (int r : members) nsock = std::max(nsock, L.socket_of[r] + 1);
  std::vector<std::vector<int>> sock(nsock);
  for (int r : members) sock[L.socket_of[r]].push_back(r);
  const int leader_socket = L.socket_of[leader];
  auto socket_leader = [&](int s) { return s == leader_socket ? leader : pick(sock[s], rule); };
  HierGroup mid;
  for (int s = 0; s < nsock; ++s) mid.ranks.push_back(socket_leader(s));
  mid.root = leader_socket;
  const int my_socket = L.socket_of[rank];
  if (rank == socket_leader(my_socket)) mid.me = my_socket;
  HierGroup low;
  low.ranks = sock[my_socket];
  low.me = index_in(low.ranks, rank);
  low.root = index_in(low.ranks, socket_leader(my_socket));
  h.levels.push_back(std::move(mid));
  h.levels.push_back(std::move(low));
  return h;
}

HierGroup balanced_root(const HierGroup& g) {
  const int p = g.size();
  const int target = inorder_root(0, p);
  if (p == 0 || target == g.root) return g;
  HierGroup r;
  r.ranks.resize(p);
  for (int j = 0; j < p; ++j) r.ranks[j] = g.ranks[(g.root + j - target + p) % p];
  r.me = g.me < 0 ? -1 : (g.me - g.root + target + p) % p;
  r.root = target;
  return r;
}

bool has_socket_level(const Layout& L) { return L.max_sockets_per_node > 1 && L.socket_level != "none"; }

int active_levels(const Layout& L, bool sockets) {
  int levels = L.num_nodes > 1 ? 1 : 0;
  bool node_level = false, socket_level = false, inner_level = false;
  for (int n = 0; n < L.num_nodes; ++n) {
    const std::vector<int>& members = L.node_ranks[n];
    if (members.size() > 1) node_level = true;
    if (!sockets) continue;
    std::vector<int> per_socket;
    for (int r : members) {
      const int s = L.socket_of[r];
      if (s >= static_cast<int>(per_socket.size())) per_socket.resize(s + 1, 0);
      ++per_socket[s];
    }
    if (per_socket.size() > 1) socket_level = true;
    for (int k : per_socket)
      if (k > 1) inner_level = true;
  }
  if (!sockets) return levels + (node_level ? 1 : 0);
  return levels + (socket_level ? 1 : 0) + (inner_level ? 1 : 0);
}

bool sockets_consecutive(const Layout& L) {
  for (const std::vector<int>& members : L.node_ranks) {
    std::vector<int> first(members.size(), -1), last(members.size(), -1), count(members.size(), 0);
    for (int r : members) {
      const int s = L.socket_of[r];
      if (first[s] < 0) first[s] = r;
      last[s] = r;
      ++count[s];
    }
    for (size_t s = 0; s < members.size(); ++s)
      if (count[s] > 0 && last[s] - first[s] + 1 != count[s]) return false;
  }
  return true;
}

LayoutFacts layout_facts(const Layout& L) {
  LayoutFacts f;
  f.levels = active_levels(L, false);
  f.socket_level = has_socket_level(L);
  // A layout of one node shares no link.
  if (L.num_nodes > 1) {
    for (int n = 0; n < L.num_nodes; ++n) f.links.ranks_per_node = std::max(f.links.ranks_per_node, L.node_size(n));
    f.links.consecutive = L.consecutive;
  }
  if (f.socket_level) {
    f.socket_levels = active_levels(L, true);
    f.sockets_consecutive = sockets_consecutive(L);
  }
  return f;
}

int64_t phase_alias(Span send, Span recv, int64_t global_alias) {
  if (send.buf == recv.buf && send.buf != Buf::kSend) return send.off == recv.off ? 0 : -1;
  if (send.buf == Buf::kSend && recv.buf == Buf::kRecv && global_alias >= 0 && send.off + global_alias == recv.off)
    return 0;
  return -1;
}

void run_phase(ScheduleBuilder& b, const HierGroup& g, const Algorithm& alg, CollArgs sub, Span send, Span recv,
               int64_t global_alias) {
  sub.rank = g.me;
  sub.size = g.size();
  sub.root = g.root;
  sub.send_alias = phase_alias(send, recv, global_alias);
  // Rooted phases: only the root may be in place (schedule/coll_args.h).
  if ((sub.op == Op::kReduce || sub.op == Op::kGather || sub.op == Op::kGatherv) && g.me != g.root) sub.send_alias = -1;
  BuilderView v;
  v.ranks = &g.ranks;
  v.send_buf = send.buf;
  v.send_off = send.off;
  v.recv_buf = recv.buf;
  v.recv_off = recv.off;
  ScopedView scope(b, v);
  alg.build(sub, b);
}

int64_t HierCall::run_level(ScheduleBuilder& b, Op op, const HierGroup& g, bool inter, int64_t count, Span send,
                            Span recv, int64_t global_alias) const {
  CollArgs sub = phase_args(op, g, count);
  const Algorithm& alg = phase_algorithm(inter, &sub);
  run_phase(b, g, alg, sub, send, recv, global_alias);
  return sub.seg_units;
}

}  // namespace hiercoll
