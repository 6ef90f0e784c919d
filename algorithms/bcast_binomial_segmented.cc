// The binomial bcast of each segment in turn (build_segmentwise,
// algorithms/trees.h): segment k+1 follows segment k down the same tree.
#include "algorithms/bcast.h"
#include "algorithms/trees.h"

namespace hiercoll {

void build_bcast_binomial_segmented(const CollArgs& a, ScheduleBuilder& b) {
  build_segmentwise(a, b, build_bcast_binomial);
}

}  // namespace hiercoll
