#include "algorithms/bcast.h"

namespace hiercoll {

// Ranks are renumbered relative to the root (vr = 0 at the root).  A rank
// receives from the rank that differs in its lowest set bit, then sends to
// vr + 2^k for every k below that bit, farthest first.
void build_bcast_binomial(const CollArgs& a, ScheduleBuilder& b) {
  const int p = a.size;
  const int vr = (a.rank - a.root + p) % p;
  const Span data{Buf::kRecv, 0, a.count};
  auto real = [&](int v) { return (v + a.root) % p; };
  int mask = 1;
  while (mask < p) {
    if (vr & mask) {
      b.recv(real(vr - mask), data);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < p) b.send(real(vr + mask), data);
}

}  // namespace hiercoll
