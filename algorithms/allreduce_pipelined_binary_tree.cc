#include "algorithms/allreduce.h"
#include "algorithms/bcast.h"
#include "algorithms/reduce.h"
#include "algorithms/trees.h"

namespace hiercoll {

// Binary tree (Vadhiyar et al., Table 1): the pipelined binary tree reduce
// and broadcast through the balanced in-order tree's root.
void build_allreduce_pipelined_binary_tree(const CollArgs& a, ScheduleBuilder& b) {
  reduce_then_bcast(a, b, inorder_root(0, a.size), build_reduce_pipelined_binary_tree, build_bcast_pipelined_binary_tree);
}

}  // namespace hiercoll
