#include "hier/node_counts.h"

#include "hier/hier_compose.h"

namespace hiercoll {

int node_counts_leader(const Layout& L, int rank) {
  // The alltoallv composition's leaders: rootless, two levels.
  const Hierarchy h = make_hierarchy(L, rank, 0, /*sockets=*/false);
  const HierGroup& node = h.levels[1];
  return node.ranks[node.root];
}

std::vector<int64_t> count_row(const CollArgs& a, int64_t send_unit, int64_t recv_unit) {
  std::vector<int64_t> row;
  row.reserve(a.send_counts.size() + a.counts.size());
  for (int64_t n : a.send_counts) row.push_back(n * send_unit);
  for (int64_t n : a.counts) row.push_back(n * recv_unit);
  return row;
}

NodeRows node_rows(const CollArgs& a, int q) {
  NodeRows r{a.node_counts, a.size};
  if (a.op == Op::kAlltoallv && r.v.empty())
    for (int i = 0; i < q; ++i) {
      const std::vector<int64_t> mine = count_row(a, 1, 1);
      r.v.insert(r.v.end(), mine.begin(), mine.end());
    }
  return r;
}

}  // namespace hiercoll
