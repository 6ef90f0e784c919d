// Binary-blocks reduce (Thakur et al. §5.2, "Reduce"): the reduce-scatter
// part of the binary-blocks allreduce (algorithms/binary_blocks.h), after which
// the largest block holds the result, a piece per member; then a binomial
// gather of the pieces by vector doubling and distance halving (§5.1) to
// the root.  A root outside the largest block takes rank 0's place: rank 0
// sends it its piece and leaves, as the paper says.
#include <numeric>

#include "algorithms/binary_blocks.h"
#include "algorithms/rabenseifner.h"
#include "algorithms/reduce.h"

namespace hiercoll {

void build_reduce_binary_blocks(const CollArgs& a, ScheduleBuilder& b) {
  if (a.count == 0) return;
  const Span acc = reduce_accumulator(a, b);
  const BinaryBlocks bb(a.rank, a.size, a.count);
  binary_blocks_reduce_up(b, bb, acc);
  const bool is_root = a.rank == a.root, root_outside = a.root >= bb.size(0);
  if (root_outside && a.rank == 0) {
    send_nonempty(b, a.root, bb.piece(acc, 0, 0));  // rank 0 holds piece 0
    return;
  }
  if (root_outside && is_root) recv_nonempty(b, 0, bb.piece(acc, 0, 0));
  if (bb.block() > 0 && !is_root) return;
  // The largest block, the root in rank 0's place if outside it.
  std::vector<int> members(bb.size(0));
  std::iota(members.begin(), members.end(), 0);
  if (root_outside) members[0] = a.root;
  const int root = root_outside ? 0 : a.root;
  const Group g{is_root ? root : a.rank, bb.size(0), &members};
  gather_doubling_blocks(b, g, bb.layout(0), acc, root);
}

}  // namespace hiercoll
