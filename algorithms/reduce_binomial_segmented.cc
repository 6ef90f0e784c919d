// The binomial reduce of each segment in turn (build_segmentwise,
// algorithms/trees.h): segment k+1 follows segment k up the same tree.
#include "algorithms/reduce.h"
#include "algorithms/trees.h"

namespace hiercoll {

void build_reduce_binomial_segmented(const CollArgs& a, ScheduleBuilder& b) {
  build_segmentwise(a, b, build_reduce_binomial);
}

}  // namespace hiercoll
