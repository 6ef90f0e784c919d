// Hierarchical bcast and reduce in arrival order (HIERCOLL_DYNAMIC in mode
// hier): the node leaders' phase and each node's phase are binomial trees
// taken in arrival order, one after the other on the private communicator
// (flat/arrival_mpi.h with the group's ranks).  The root leads its node and
// the leaders' tree, as in the static compositions; a late process delays
// neither the other nodes (its node's leader is placed as late as it
// arrives) nor its node's other ranks.  The two phases do not overlap
// segment by segment as the static pipelined compositions do: each is one
// arrival-order call.
#include <vector>

#include "flat/arrival_mpi.h"
#include "runtime/plan.h"
#include "runtime/stats.h"

namespace hiercoll {

namespace {

// The ranks of one phase's group, its root first.
struct Groups {
  std::vector<int> leaders;  // the root, then the first rank of every other node
  std::vector<int> node;     // my node's leader, then its other ranks
};

Groups groups_of(const Layout& L, int me, int root) {
  Groups g;
  const int root_node = L.node_of[root];
  g.leaders.push_back(root);
  for (int n = 0; n < L.num_nodes; ++n)
    if (n != root_node) g.leaders.push_back(L.master_of_node(n));
  const int my_node = L.node_of[me];
  const int leader = my_node == root_node ? root : L.master_of_node(my_node);
  g.node.push_back(leader);
  for (int r : L.node_ranks[my_node])
    if (r != leader) g.node.push_back(r);
  return g;
}

int index_in(const std::vector<int>& group, int rank) {
  for (size_t i = 0; i < group.size(); ++i)
    if (group[i] == rank) return static_cast<int>(i);
  return -1;
}

}  // namespace

int run_hier_arrival(const Call& c, Plan& plan, const Topology& topo, const Settings& s, CommState* state,
                     int tag_base) {
  const CollArgs& call = plan.args;
  if (call.op != Op::kBcast && call.op != Op::kReduce) return -1;
  if (!state->facts.hierarchical()) return -1;
  const Layout& L = *topo.layout;
  const int me = topo.rank;
  const Groups g = groups_of(L, me, call.root);
  const Algorithm* binomial = find_algorithm(call.op, "binomial");

  // One phase: the binomial tree over `group` in arrival order, with
  // `bufs`; nothing for a rank outside the group or a group of one.
  auto phase = [&](const std::vector<int>& group, const Buffers& bufs, int64_t send_alias) {
    const int i = index_in(group, me);
    if (i < 0 || group.size() < 2) return MPI_SUCCESS;
    CollArgs a = call;
    a.rank = i;
    a.size = static_cast<int>(group.size());
    a.root = 0;
    a.seg_units = 0;
    a.send_alias = send_alias;
    const ScheduleKey key{binomial, a, 1 + static_cast<int>(s.dynamic_fill)};
    const ArrivalTree& tree =
        *state->arrival_trees.get(key, [&] { return build_arrival_tree(*binomial, a, s.dynamic_fill); });
    return execute_arrival_order(tree, bufs, c.mpi_op, topo.comm, tag_base, me, group[0], &group);
  };

  note_algorithm("hier:binomial");
  note_arrival_order();
  if (call.op == Op::kBcast) {
    int rc = phase(g.leaders, plan.bufs, -1);
    return rc == MPI_SUCCESS ? phase(g.node, plan.bufs, -1) : rc;
  }
  // Reduce: each node into scratch at its leader, then the leaders into
  // the root's result.  A node of one rank gives its input as it is.
  const bool node_phase = g.node.size() > 1;
  ScratchBuffer scratch;
  Buffers node_bufs = plan.bufs;
  if (node_phase && me == g.node[0]) node_bufs[Buf::kRecv] = scratch.allocate(plan.bufs[Buf::kTmp], call.count);
  int rc = phase(g.node, node_bufs, -1);
  if (rc != MPI_SUCCESS) return rc;
  Buffers leader_bufs = plan.bufs;
  if (node_phase) leader_bufs[Buf::kSend] = node_bufs[Buf::kRecv];
  return phase(g.leaders, leader_bufs, node_phase ? -1 : call.send_alias);
}

}  // namespace hiercoll
