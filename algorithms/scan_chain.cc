// Linear pipelined prefix (scan and exscan): rank v receives the prefix of
// ranks below it segment by segment, adds its own and passes it on -- the
// two-tree paper's linear pipeline as an in-order tree, run by tree_scan
// (algorithms/tree_scan.cc).  The fewest operations and bytes of all scans,
// (p-1) * count each: best for long vectors on few ranks.
#include "algorithms/scan.h"
#include "algorithms/trees.h"

namespace hiercoll {

void build_scan_chain(const CollArgs& a, ScheduleBuilder& b) {
  tree_scan_along(a, local_chain_down(a.size, a.rank), false, b);
}
void build_exscan_chain(const CollArgs& a, ScheduleBuilder& b) {
  tree_scan_along(a, local_chain_down(a.size, a.rank), true, b);
}

}  // namespace hiercoll
