#include "algorithms/bcast.h"
#include "algorithms/trees.h"

namespace hiercoll {

namespace {

// The whole message from the root to root+1, root+2, ... in turn.
void bcast_linear_whole(const CollArgs& a, ScheduleBuilder& b) {
  const Span s{Buf::kRecv, 0, a.count};
  if (a.rank != a.root) {
    b.recv(a.root, s);
    return;
  }
  for (int i = 1; i < a.size; ++i) b.send((a.root + i) % a.size, s);
}

}  // namespace

// Sequential tree (Vadhiyar, Fagg, Dongarra §2.1), segmented as the paper
// segments it: for each segment in turn, the root sends it to root+1,
// root+2, ... in turn; every other rank receives the segments from the root.
void build_bcast_linear(const CollArgs& a, ScheduleBuilder& b) { build_segmentwise(a, b, bcast_linear_whole); }

}  // namespace hiercoll
