// Linear pipelined prefix (scan and exscan): rank v receives the prefix of
// ranks below it segment by segment, adds its own and passes it on -- the
// two-tree paper's linear pipeline as an in-order tree, run by tree_scan
// (algorithms/tree_scan.cc).  The fewest operations and bytes of all scans,
// (p-1) * count each: best for long vectors on few ranks.
#include "algorithms/scan.h"
#include "algorithms/trees.h"

namespace hiercoll {

namespace {

void chain(const CollArgs& a, bool exclusive, ScheduleBuilder& b) {
  TreePipeline pl;
  pl.p = a.size;
  pl.seg = pipeline_segment(a);
  pl.parts.push_back({local_chain_down(a.size, a.rank), 0, a.count});
  tree_scan(pl, exclusive, b);
}

}  // namespace

void build_scan_chain(const CollArgs& a, ScheduleBuilder& b) { chain(a, false, b); }
void build_exscan_chain(const CollArgs& a, ScheduleBuilder& b) { chain(a, true, b); }

}  // namespace hiercoll
