#include <map>
#include <sstream>

#include "topo/topology.h"

namespace hiercoll {

Layout make_layout(const std::vector<int>& node_key, const std::vector<int>& socket, const std::string& level) {
  Layout L;
  L.size = static_cast<int>(node_key.size());
  L.node_of.assign(L.size, -1);
  L.local_rank.assign(L.size, 0);
  std::map<int, int> node_index;  // key -> node, numbered in order of first (lowest) rank
  for (int r = 0; r < L.size; ++r) {
    auto it = node_index.find(node_key[r]);
    if (it == node_index.end()) {
      it = node_index.emplace(node_key[r], L.num_nodes++).first;
      L.node_ranks.emplace_back();
    }
    L.node_of[r] = it->second;
    L.local_rank[r] = static_cast<int>(L.node_ranks[it->second].size());
    L.node_ranks[it->second].push_back(r);
  }
  for (const auto& ranks : L.node_ranks) {
    if (ranks.back() - ranks.front() + 1 != static_cast<int>(ranks.size())) L.consecutive = false;
    if (ranks.size() != L.node_ranks[0].size()) L.uniform = false;
  }
  // Renumber sockets densely within each node.
  L.socket_of.assign(L.size, 0);
  L.socket_level = level;
  for (const auto& ranks : L.node_ranks) {
    std::map<int, int> dense;
    for (int r : ranks) {
      const int s = socket.empty() ? 0 : socket[r];
      auto it = dense.emplace(s, static_cast<int>(dense.size())).first;
      L.socket_of[r] = it->second;
    }
    L.max_sockets_per_node = std::max(L.max_sockets_per_node, static_cast<int>(dense.size()));
  }
  return L;
}

std::string Layout::describe() const {
  std::ostringstream os;
  os << size << " ranks on " << num_nodes << " node(s) [";
  for (int n = 0; n < num_nodes; ++n) os << (n ? " " : "") << node_size(n);
  os << "], " << (consecutive ? "consecutive" : "non-consecutive") << ", " << (uniform ? "uniform" : "uneven")
     << ", sockets/node<=" << max_sockets_per_node << " (" << socket_level << ")";
  return os.str();
}

}  // namespace hiercoll
