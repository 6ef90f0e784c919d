// Hierarchical rooted collectives in arrival order (HIERCOLL_DYNAMIC in
// mode hier): the node leaders' phase and each node's phase are binomial
// trees taken in arrival order, one after the other on the private
// communicator (arrival/arrival_mpi.h with the group's ranks).  The root
// leads its node and the leaders' tree, as in the static compositions; a
// late process delays neither the other nodes (its node's leader is placed
// as late as it arrives) nor its node's other ranks.  The two phases do
// not overlap segment by segment as the static pipelined compositions do:
// each is one arrival-order call.
//
// Node leaders: in a bcast (with HIERCOLL_DYNAMIC_LEADERS=first) a node's
// first arrival leads it -- the root hands the node's place in the
// leaders' tree to the first of the node's processes whose start message
// it gets (Election, arrival/arrival_mpi.h) -- so a late leader no longer
// holds up its node.  Reduce and gather keep the node's first rank: their
// node phase runs first, while the root could not answer the election,
// and a late rank's data must cross to the root after it arrives either
// way.  Scatter keeps it too: the root packs the bundles, leader first,
// before the leaders are known.
//
// Gather and scatter move each node's blocks as one BUNDLE between its
// leader and the root: a bundle holds a node's blocks in its node group's
// order (leader first), padded to the largest node so that the leaders'
// phase is a gather or scatter of equal blocks (one bundle a unit).  The
// root copies between the bundles and the user's rank-indexed buffer.
#include <algorithm>
#include <vector>

#include "arrival/arrival_mpi.h"
#include "arrival/hier_arrival_tree.h"
#include "hier/hier_registry.h"
#include "runtime/plan.h"
#include "runtime/stats.h"

namespace hiercoll {

namespace {

// A node's group, `leader` first, then the node's other ranks in rank order.
std::vector<int> group_led_by(const Layout& L, int node, int leader) {
  std::vector<int> g{leader};
  for (int r : L.node_ranks[node])
    if (r != leader) g.push_back(r);
  return g;
}

// A node's group with its fixed leader: the root on the root's node, else
// the node's first rank.
std::vector<int> node_group(const Layout& L, int node, int root) {
  return group_led_by(L, node, L.node_of[root] == node ? root : L.master_of_node(node));
}

// The root, then the leader of every other node.
std::vector<int> leaders_group(const Layout& L, int root) {
  std::vector<int> g{root};
  for (int n = 0; n < L.num_nodes; ++n)
    if (n != L.node_of[root]) g.push_back(L.master_of_node(n));
  return g;
}

int index_in(const std::vector<int>& group, int rank) {
  const auto it = std::find(group.begin(), group.end(), rank);
  return it == group.end() ? -1 : static_cast<int>(it - group.begin());
}

// A buffer of blocks seen as bundles of `m` blocks each.
BufDesc in_bundles(BufDesc d, int m) {
  d.elems_per_unit *= m;
  return d;
}

class HierArrival {
 public:
  HierArrival(const Call& c, Plan& plan, const Topology& topo, const Settings& s, CommState* state, int tag_base)
      : c_(c),
        plan_(plan),
        L_(*topo.layout),
        topo_(topo),
        s_(s),
        state_(state),
        tag_base_(tag_base),
        me_(topo.rank),
        root_(plan.args.root),
        leaders_(leaders_group(L_, root_)),
        node_(node_group(L_, L_.node_of[me_], root_)),
        leader_(me_ == node_[0]) {}

  int bcast() {
    const int rc = s_.dynamic_leaders ? elected_leaders_phase(plan_.bufs) : phase(leaders_, plan_.bufs, -1);
    return rc == MPI_SUCCESS ? phase(node_, plan_.bufs, -1) : rc;
  }

  // Each node into scratch at its leader, then the leaders into the root's
  // result.  A node of one rank gives its input as it is.
  int reduce() {
    const bool node_phase = node_.size() > 1;
    ScratchBuffer scratch;
    Buffers node_bufs = plan_.bufs;
    if (node_phase && leader_) node_bufs[Buf::kRecv] = scratch.allocate(plan_.bufs[Buf::kTmp], plan_.args.count);
    int rc = phase(node_, node_bufs, -1);
    if (rc != MPI_SUCCESS) return rc;
    Buffers leader_bufs = plan_.bufs;
    if (node_phase) leader_bufs[Buf::kSend] = node_bufs[Buf::kRecv];
    return phase(leaders_, leader_bufs, node_phase ? -1 : plan_.args.send_alias);
  }

  // Each node's blocks into its leader's bundle, the bundles to the root,
  // then into the user's buffer in rank order.
  int gather() {
    ScratchBuffer bundle_mem, all_mem;
    Buffers node_bufs = plan_.bufs;
    if (leader_) node_bufs[Buf::kRecv] = bundle_mem.allocate(plan_.bufs[Buf::kTmp], bundle_blocks());
    int rc = node_.size() > 1 ? phase(node_, node_bufs, -1)
             : leader_        ? copy_span(node_bufs, Span{Buf::kSend, 0, 1}, Span{Buf::kRecv, 0, 1})
                              : MPI_SUCCESS;
    if (rc != MPI_SUCCESS || !leader_) return rc;
    const BufDesc all = me_ == root_ ? all_mem.allocate(plan_.bufs[Buf::kTmp], all_blocks()) : BufDesc{};
    rc = phase(leaders_, bundle_bufs(all, node_bufs[Buf::kRecv]), -1);
    if (rc != MPI_SUCCESS || me_ != root_) return rc;
    return move_blocks(all, /*to_user=*/true);
  }

  // The reverse: the root's blocks into bundles, the bundles to the
  // leaders, each leader's bundle to its node.
  int scatter() {
    ScratchBuffer bundle_mem, all_mem;
    int rc = MPI_SUCCESS;
    const BufDesc all = me_ == root_ ? all_mem.allocate(plan_.bufs[Buf::kTmp], all_blocks()) : BufDesc{};
    if (me_ == root_) rc = move_blocks(all, /*to_user=*/false);
    Buffers node_bufs = plan_.bufs;
    if (leader_) {
      node_bufs[Buf::kSend] = bundle_mem.allocate(plan_.bufs[Buf::kTmp], bundle_blocks());
      if (rc == MPI_SUCCESS) rc = phase(leaders_, bundle_bufs(all, node_bufs[Buf::kSend]), -1);
    }
    if (rc != MPI_SUCCESS) return rc;
    if (node_.size() > 1) return phase(node_, node_bufs, -1);
    return copy_span(node_bufs, Span{Buf::kSend, 0, 1}, Span{Buf::kRecv, 0, 1});
  }

 private:
  // One phase: the binomial tree over `group` in arrival order, with
  // `bufs`; nothing for a rank outside the group or a group of one.
  int phase(const std::vector<int>& group, const Buffers& bufs, int64_t send_alias) {
    const int i = index_in(group, me_);
    if (i < 0 || group.size() < 2) return MPI_SUCCESS;
    return execute_arrival_order(tree(i, static_cast<int>(group.size()), send_alias), bufs, c_.mpi_op, topo_.comm,
                                 tag_base_, me_, group[0], &group);
  }

  // The leaders' phase where a node's first arrival leads it (bcast): every
  // rank of the other nodes starts as a candidate for its node's place in
  // the leaders' tree; the root's node keeps the root as its leader.  Sets
  // node_ to the group led by whoever was chosen.
  int elected_leaders_phase(const Buffers& bufs) {
    const int my_node = L_.node_of[me_];
    if (my_node == L_.node_of[root_] && me_ != root_) return MPI_SUCCESS;
    if (leaders_.size() < 2) return MPI_SUCCESS;
    Election e;
    if (me_ == root_) {
      e.members.assign(leaders_.size(), -1);
      e.members[0] = root_;
      for (size_t k = 1; k < leaders_.size(); ++k)
        for (int r : L_.node_ranks[L_.node_of[leaders_[k]]]) {
          e.candidates.push_back(r);
          e.index.push_back(static_cast<int>(k));
        }
    } else {
      for (int r : L_.node_ranks[my_node])
        if (r != me_) e.mates.push_back(r);
    }
    const int rc = execute_arrival_order(tree(me_ == root_ ? 0 : 1, static_cast<int>(leaders_.size()), -1), bufs,
                                         c_.mpi_op, topo_.comm, tag_base_, me_, root_, nullptr, &e);
    if (me_ != root_) node_ = group_led_by(L_, my_node, e.leader >= 0 ? e.leader : me_);
    return rc;
  }

  // The binomial tree of a group of `size` in arrival order, seen from
  // group index `i` (only whether it is the root matters).
  const ArrivalTree& tree(int i, int size, int64_t send_alias) {
    const Algorithm* binomial = find_algorithm(plan_.args.op, "binomial");
    CollArgs a = plan_.args;
    a.rank = i;
    a.size = size;
    a.root = 0;
    a.seg_units = 0;
    a.send_alias = send_alias;
    const ScheduleKeyRef key{binomial, a, 1 + static_cast<int>(s_.dynamic_fill)};
    return *state_->arrival_trees.get(key, [&] { return build_arrival_tree(*binomial, a, s_.dynamic_fill); });
  }

  int bundle_blocks() const {
    int m = 0;
    for (int n = 0; n < L_.num_nodes; ++n) m = std::max(m, L_.node_size(n));
    return m;
  }
  int64_t all_blocks() const { return int64_t(bundle_blocks()) * static_cast<int64_t>(leaders_.size()); }

  // The leaders' phase's buffers, one bundle a unit: `all` the root's
  // bundles (Recv of a gather, Send of a scatter), `mine` this leader's.
  Buffers bundle_bufs(const BufDesc& all, const BufDesc& mine) const {
    const int m = bundle_blocks();
    const bool gather = plan_.args.op == Op::kGather;
    Buffers b = plan_.bufs;
    b[gather ? Buf::kSend : Buf::kRecv] = in_bundles(mine, m);
    if (me_ == root_) b[gather ? Buf::kRecv : Buf::kSend] = in_bundles(all, m);
    b[Buf::kTmp] = in_bundles(plan_.bufs[Buf::kTmp], m);
    return b;
  }

  // Copies every rank's block between the root's bundles and the user's
  // buffer (Recv of a gather, Send of a scatter).
  int move_blocks(const BufDesc& all, bool to_user) const {
    Buffers b = plan_.bufs;
    b[Buf::kTmp] = all;
    const Buf user = to_user ? Buf::kRecv : Buf::kSend;
    const int m = bundle_blocks();
    for (size_t i = 0; i < leaders_.size(); ++i) {
      const std::vector<int> ranks = node_group(L_, L_.node_of[leaders_[i]], root_);
      for (size_t j = 0; j < ranks.size(); ++j) {
        const Span bundled{Buf::kTmp, static_cast<int64_t>(i * m + j), 1}, block{user, ranks[j], 1};
        const int rc = to_user ? copy_span(b, bundled, block) : copy_span(b, block, bundled);
        if (rc != MPI_SUCCESS) return rc;
      }
    }
    return MPI_SUCCESS;
  }

  const Call& c_;
  Plan& plan_;
  const Layout& L_;
  const Topology& topo_;
  const Settings& s_;
  CommState* state_;
  const int tag_base_, me_, root_;
  const std::vector<int> leaders_;
  std::vector<int> node_;  // with an elected leader, known after the leaders' phase
  const bool leader_;      // of the fixed leaders (reduce, gather, scatter)
};

// Bcast and reduce on nodes of equal size with node leaders by arrival:
// the composition forced (and its inter-node algorithm), else the decided
// one (`tuned`, where it is a composition), else the plain one, run in
// arrival order with nodes as the unit of placement
// (arrival/hier_arrival_tree.h), so that segments pipeline
// through the levels as in the static composition.  The leaders keep the
// composition's algorithm, the two-tree included (docs/ARCHITECTURE.md,
// "Compositions in arrival order").  -1: not for this call (then the
// phases above run).
int run_composed_arrival(const Call& c, Plan& plan, const Topology& topo, const Settings& s, CommState* state,
                         const Tuned& tuned, int tag_base) {
  const Layout& L = *topo.layout;
  const Op op = plan.args.op;
  if ((op != Op::kBcast && op != Op::kReduce) || !L.uniform || !s.dynamic_leaders) return -1;
  const bool decided_hier = tuned.range && tuned.range->method.kind == Method::kHier;
  const int64_t segment = s.segment_bytes > 0 || !decided_hier ? s.segment_bytes : tuned.range->segment_bytes;
  // Two levels: a node is placed whole, with its ranks in arrival order
  // (a socket level would fix who leads each socket).
  LayoutFacts F = state->facts;
  F.socket_level = false;
  const int o = static_cast<int>(op);
  const HierChoice* ch =
      choose_composition(L, F, plan.args, plan.unit_bytes, segment,
                         HierForced{s.composition[o], s.inter_algorithm[o], decided_hier ? tuned.range->method.name : ""});
  if (!ch) return -1;
  const ScheduleKeyRef key{ch, plan.args, 1 + static_cast<int>(s.dynamic_fill)};
  const ArrivalTree& t = *state->arrival_trees.get(
      key, [&] { return build_hier_arrival_tree(*ch, plan.args, L.node_size(0), s.dynamic_fill); });
  if (t.p == 0) return -1;
  note_algorithm(ch->name.c_str());
  return execute_arrival_order(t, plan.bufs, c.mpi_op, topo.comm, tag_base, topo.rank, plan.args.root, nullptr,
                               nullptr, &L.node_of);
}

}  // namespace

int run_hier_arrival(const Call& c, Plan& plan, const Topology& topo, const Settings& s, CommState* state,
                     const Tuned& tuned, int tag_base) {
  if (!state->facts.hierarchical() || topo.layout->size != plan.args.size) return -1;
  int rc = run_composed_arrival(c, plan, topo, s, state, tuned, tag_base);
  if (rc != -1) {
    note_arrival_order();
    return rc;
  }
  HierArrival h(c, plan, topo, s, state, tag_base);
  switch (plan.args.op) {
    case Op::kBcast: rc = h.bcast(); break;
    case Op::kReduce: rc = h.reduce(); break;
    case Op::kGather: rc = h.gather(); break;
    case Op::kScatter: rc = h.scatter(); break;
    default: return -1;
  }
  note_algorithm("hier:binomial");
  note_arrival_order();
  return rc;
}

}  // namespace hiercoll
