#include "decide/scaled_layout.h"

#include "select/tuning_file.h"

namespace hiercoll {

Layout layout_with_nodes(const Layout& L, int nodes) {
  const LayoutKey whole = layout_key(L);
  LayoutKey k;
  k.placement = whole.placement == "node" ? "node" : "slot";
  std::vector<int> source(nodes);  // the node of L each node stands for
  for (int i = 0; i < nodes; ++i) {
    source[i] = static_cast<int>(int64_t{i} * L.num_nodes / nodes);
    k.ranks_per_node.push_back(L.node_size(source[i]));
  }
  const std::vector<int> node_of = nodes_of(k);
  // Each rank's socket: that of the rank of the same local index on its
  // source node.
  std::vector<int> socket(node_of.size()), placed(nodes, 0);
  for (size_t r = 0; r < node_of.size(); ++r) {
    const int i = node_of[r];
    socket[r] = L.socket_of[L.node_ranks[source[i]][placed[i]++]];
  }
  return make_layout(node_of, socket, L.socket_level);
}

const SmallerLayout& SmallerLayouts::with_nodes(int nodes) {
  std::unique_ptr<SmallerLayout>& s = built_[nodes];
  if (!s) {
    s = std::make_unique<SmallerLayout>();
    s->layout = layout_with_nodes(whole_, nodes);
    s->facts = layout_facts(s->layout);
  }
  return *s;
}

}  // namespace hiercoll
