// Allreduce of long vectors on nodes with equal rank counts: reduce-scatter
// inside each node (pairwise exchange, Thakur et al. Sect. 4.4), so local
// rank i holds piece i reduced over its node; allreduce of piece i among
// the local ranks i of all nodes ("columns", as Open MPI's HAN forms them);
// allgather of the pieces inside each node.  Every rank moves 1/k of the
// vector between nodes instead of the masters moving all of it, so all
// ranks' links carry inter-node traffic at once.  Node order is rank order
// when node ranks are consecutive, which non-commutative operations need.
#include "algorithms/allgather.h"
#include "algorithms/blocks.h"
#include "algorithms/reduce_scatter.h"
#include "hier/hier_compose.h"
#include "select/flat_rules.h"

namespace hiercoll {

void build_hier_allreduce_columns(const HierCall& c, ScheduleBuilder& b) {
  const Layout& L = c.layout;
  const int rank = c.args.rank, node = L.node_of[rank], me = L.local_rank[rank];
  const std::vector<int>& members = L.node_ranks[node];
  const int k = static_cast<int>(members.size());
  const Blocks pieces = even_blocks(c.args.count, k);
  const Group local{me, k, &members};
  const Span mine = pieces.span(Buf::kRecv, me);

  reduce_scatter_pairwise_blocks(b, local, pieces, Buf::kSend, mine);

  HierGroup column;
  for (int n = 0; n < L.num_nodes; ++n) column.ranks.push_back(L.node_ranks[n][me]);
  column.me = node;
  if (mine.n > 0) {
    c.run_level(b, Op::kAllreduce, column, true, mine.n, mine, mine, c.args.send_alias);
  }

  // The flat default allgather for the node's size and the whole vector,
  // as its blocks primitive.
  static const struct {
    const char* name;
    AllgatherBlocksFn fn;
  } kBlocks[] = {
      {"recursive_doubling", allgather_recursive_doubling_blocks},
      {"bruck", allgather_bruck_blocks},
      {"ring", allgather_ring_blocks},
  };
  const CollArgs gather_args = c.phase_args(Op::kAllgather, HierGroup{members, me, 0}, 1);
  const MachineFigures node_figures = inside_node(c.choice.machine ? *c.choice.machine : builtin_machine());
  const std::string name = default_algorithm(gather_args, c.args.count * c.choice.unit_bytes, &node_figures)->name;
  AllgatherBlocksFn fn = allgather_ring_blocks;
  for (const auto& k : kBlocks)
    if (name == k.name) fn = k.fn;
  fn(b, local, pieces, Buf::kRecv);
}

}  // namespace hiercoll
