#include <algorithm>

#include "flat/bcast.h"
#include "flat/trees.h"

namespace hiercoll {

// Sequential tree (Vadhiyar, Fagg, Dongarra §2.1), segmented as the paper
// segments it: for each segment in turn, the root sends it to root+1,
// root+2, ... in turn; every other rank receives the segments from the root.
void build_bcast_linear(const CollArgs& a, ScheduleBuilder& b) {
  const int64_t seg = pipeline_segment(a);
  for (int64_t off = 0; off < a.count; off += seg) {
    const Span s{Buf::kRecv, off, std::min(seg, a.count - off)};
    if (a.rank != a.root) {
      b.recv(a.root, s);
      continue;
    }
    for (int i = 1; i < a.size; ++i) b.send((a.root + i) % a.size, s);
  }
}

}  // namespace hiercoll
