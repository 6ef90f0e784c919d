// A layout of one block per rank inside a buffer: block i is units
// [off[i], off[i] + n[i]).  Algorithms that scatter, gather, reduce-scatter
// or allgather pieces of a vector work on layouts, so one generator serves
// both block collectives (equal blocks) and vector algorithms that cut a
// vector into uneven pieces (scatter+allgather bcast, Rabenseifner).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "schedule/schedule.h"

namespace hiercoll {

struct Blocks {
  std::vector<int64_t> off, n;

  int size() const { return static_cast<int>(n.size()); }
  int64_t total() const { return n.empty() ? 0 : off.back() + n.back(); }
  // Block i in buffer `buf`.
  Span span(Buf buf, int i) const { return Span{buf, off[i], n[i]}; }
  // Blocks first..last-1, which are adjacent, as one span.
  Span range(Buf buf, int first, int last) const {
    if (first >= last) return Span{buf, first < size() ? off[first] : total(), 0};
    return Span{buf, off[first], off[last - 1] + n[last - 1] - off[first]};
  }
};

// `count` units cut into `parts` adjacent blocks, the first count % parts
// one unit longer than the rest.
Blocks even_blocks(int64_t count, int parts);
// even_blocks(count, parts), shared with this thread's recent calls: every
// rank of a group builds the same layout, so a generator run for all p
// ranks (the simulator, the decision) makes it once instead of p times
// (O(p) each: p^2 in all for Rabenseifner or scatter + allgather).
std::shared_ptr<const Blocks> shared_even_blocks(int64_t count, int parts);
// Adjacent blocks of the given sizes.
Blocks blocks_of_sizes(const std::vector<int64_t>& sizes);
// `parts` blocks of one unit each (block collectives).
inline Blocks unit_blocks(int parts) { return even_blocks(parts, parts); }

}  // namespace hiercoll
