// Alltoallv's count exchange: a node's leader bundles its members' blocks,
// but MPI gives each rank only its own counts.  (The multi-leader form,
// whose every rank leads, has the rows sent to every rank of the node.)  Before the node-aware
// alltoallv composition runs, every rank sends its row (its send counts,
// then its receive counts, in scratch units) to its node's leader, inside
// the node only: the bundles between leaders are sized from the rows (what
// node m sends my node is what my members receive from node m's ranks),
// so no count crosses the network.  runtime/node_counts.cc runs it; tests
// and the model emulate it with these functions.
#pragma once

#include <cstdint>
#include <vector>

#include "schedule/coll_args.h"
#include "topo/topology.h"

namespace hiercoll {

// The rank the rows of `rank`'s node go to (the composition's leader).
int node_counts_leader(const Layout& L, int rank);

// a's row: send counts times send_unit, then receive counts times
// recv_unit (the scratch units per unit of each side).
std::vector<int64_t> count_row(const CollArgs& a, int64_t send_unit, int64_t recv_unit);

// A node's rows as the alltoall(v) compositions read them: local rank i's
// block for (send) or from (recv) rank j, in scratch units; empty: one
// unit each (alltoall).
struct NodeRows {
  std::vector<int64_t> v;
  int p = 0;
  int64_t send(int i, int j) const { return v.empty() ? 1 : v[size_t(i) * 2 * p + j]; }
  int64_t recv(int i, int j) const { return v.empty() ? 1 : v[size_t(i) * 2 * p + p + j]; }
};

// The rows of a's node of q ranks: a.node_counts, or for an alltoallv
// without the exchange (the model's and the simulator's calls, whose
// counts are alike on every rank) a's own row q times.
NodeRows node_rows(const CollArgs& a, int q);

// Rank rank's CollArgs::node_counts from every member's row (row(j): rank
// j's): on the leader (on every rank: everywhere, kNodeRowsEverywhere) its
// node's rows in node order, else its own row.
template <typename RowOf>
std::vector<int64_t> node_counts_of(const Layout& L, int rank, bool everywhere, RowOf row) {
  if (!everywhere && rank != node_counts_leader(L, rank)) return row(rank);
  std::vector<int64_t> rows;
  for (int j : L.node_ranks[L.node_of[rank]]) {
    const std::vector<int64_t> r = row(j);
    rows.insert(rows.end(), r.begin(), r.end());
  }
  return rows;
}

}  // namespace hiercoll
