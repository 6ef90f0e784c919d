#include "algorithms/bcast.h"
#include "algorithms/trees.h"

namespace hiercoll {

// Linear pipeline (two-tree paper, Sect. 2): relative rank v receives each
// segment from v-1 and passes it to v+1 while the next one comes in.
void build_bcast_chain(const CollArgs& a, ScheduleBuilder& b) {
  TreePipeline pl;
  pl.p = a.size;
  pl.shift = a.root;
  pl.seg = pipeline_segment(a);
  pl.parts.push_back({local_chain(a.size, (a.rank - a.root + a.size) % a.size), 0, a.count});
  tree_bcast(pl, b);
}

}  // namespace hiercoll
