// Reduce-scatter (reduce_scatter_block too) in columns, on nodes with equal
// rank counts: reduce-scatter inside each node, local rank i receiving its
// node's reduction of the blocks of column i (the ranks of local index i
// on every node, in node order); then reduce-scatter within each column,
// which leaves every rank its own block.  A rank sends between nodes only
// its column's share, 1/k of its node's traffic, so all of a node's ranks
// use its links at once, as in allreduce_columns.  The phases combine in
// group order, nodes in node order, which is rank order when node ranks are
// consecutive (non-commutative operations need that).  The node phase
// needs each column's blocks back to back: in Send itself where rank order
// is column order (ranks dealt round-robin over the nodes), else copied
// into scratch in that order first.
#include <vector>

#include "hier/hier_compose.h"

namespace hiercoll {

namespace {

// Whether rank i N + m is local rank i of node m for every rank.
bool ranks_in_column_order(const Layout& L) {
  for (int m = 0; m < L.num_nodes; ++m)
    for (int i = 0; i < L.node_size(m); ++i)
      if (L.node_ranks[m][i] != i * L.num_nodes + m) return false;
  return true;
}

// The call's input with column i's blocks back to back, columns in order.
Span column_input(const HierCall& c, ScheduleBuilder& b, int k) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  if (ranks_in_column_order(L)) return Span{Buf::kSend, 0, 0};
  std::vector<int64_t> offset(a.size + 1, 0);  // rank r's block in Send
  for (int r = 0; r < a.size; ++r) offset[r + 1] = offset[r] + a.counts[r];
  const Span packed = b.tmp(offset[a.size]);
  int64_t pos = packed.off;
  for (int i = 0; i < k; ++i)
    for (int m = 0; m < L.num_nodes; ++m) {
      const int r = L.node_ranks[m][i];
      b.copy(Span{Buf::kSend, offset[r], a.counts[r]}, Span{Buf::kTmp, pos, a.counts[r]});
      pos += a.counts[r];
    }
  return packed;
}

}  // namespace

void build_hier_reduce_scatter_columns(const HierCall& c, ScheduleBuilder& b) {
  const CollArgs& a = c.args;
  const Layout& L = c.layout;
  const int node = L.node_of[a.rank], me = L.local_rank[a.rank];
  const int k = L.node_size(node);

  const HierGroup members{L.node_ranks[node], me, 0};
  CollArgs in_node = c.phase_args(Op::kReduceScatter, members, 0);
  in_node.counts.assign(k, 0);
  for (int i = 0; i < k; ++i)
    for (int m = 0; m < L.num_nodes; ++m) in_node.counts[i] += a.counts[L.node_ranks[m][i]];
  in_node.count = in_node.counts[me];
  const Span input = column_input(c, b, k);
  const Span column_sum = b.tmp(in_node.count);
  const Algorithm& node_alg = c.phase_algorithm(/*inter=*/false, &in_node);
  run_phase(b, members, node_alg, in_node, input, column_sum, a.send_alias);

  HierGroup column;
  for (int m = 0; m < L.num_nodes; ++m) column.ranks.push_back(L.node_ranks[m][me]);
  column.me = node;
  CollArgs across = c.phase_args(Op::kReduceScatter, column, a.counts[a.rank]);
  for (int r : column.ranks) across.counts.push_back(a.counts[r]);
  const Algorithm& column_alg = c.phase_algorithm(/*inter=*/true, &across);
  run_phase(b, column, column_alg, across, column_sum, Span{Buf::kRecv, 0, 0}, a.send_alias);
}

}  // namespace hiercoll
