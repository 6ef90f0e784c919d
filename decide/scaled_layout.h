// A smaller machine of the same kind: the layout with n of its N nodes,
// for costing a candidate whose schedules on the whole layout are too
// large to simulate (decide/model_cost.h).  Node i of the smaller layout
// has the ranks and the socket pattern of node floor(i N / n); ranks are
// placed as in the layout (consecutive per node, or round robin over the
// nodes; a placement of any other kind becomes consecutive).
#pragma once

#include <map>
#include <memory>

#include "hier/hier_compose.h"
#include "topo/topology.h"

namespace hiercoll {

Layout layout_with_nodes(const Layout& L, int nodes);

// The smaller layouts of one layout that a decision samples, each built
// once (with its facts) for all the candidates costed from them.
struct SmallerLayout {
  Layout layout;
  LayoutFacts facts;
};
class SmallerLayouts {
 public:
  explicit SmallerLayouts(const Layout& whole) : whole_(whole) {}
  const Layout& whole() const { return whole_; }
  // layout_with_nodes(whole(), nodes), built on first use.
  const SmallerLayout& with_nodes(int nodes);

 private:
  const Layout& whole_;
  std::map<int, std::unique_ptr<SmallerLayout>> built_;
};

}  // namespace hiercoll
