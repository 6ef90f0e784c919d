#include "algorithms/blocks.h"

#include "algorithms/call_blocks.h"

namespace hiercoll {

Blocks even_blocks(int64_t count, int parts) {
  std::vector<int64_t> sizes(parts, count / parts);
  for (int64_t i = 0; i < count % parts; ++i) ++sizes[i];
  return blocks_of_sizes(sizes);
}

std::shared_ptr<const Blocks> shared_even_blocks(int64_t count, int parts) {
  struct Kept {
    int64_t count = -1;
    int parts = -1;
    std::shared_ptr<const Blocks> blocks;
  };
  thread_local Kept kept[4];  // a composition's phases use a few layouts at once
  thread_local int next = 0;
  for (const Kept& k : kept)
    if (k.count == count && k.parts == parts) return k.blocks;
  Kept& k = kept[next];
  next = (next + 1) % 4;
  k = Kept{count, parts, std::make_shared<const Blocks>(even_blocks(count, parts))};
  return k.blocks;
}

Blocks blocks_of_sizes(const std::vector<int64_t>& sizes) {
  Blocks b;
  b.n = sizes;
  b.off.resize(sizes.size());
  int64_t pos = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    b.off[i] = pos;
    pos += sizes[i];
  }
  return b;
}

bool adjacent_in_order(const Blocks& L) {
  for (int i = 1; i < L.size(); ++i)
    if (L.off[i] != L.off[i - 1] + L.n[i - 1]) return false;
  return true;
}

}  // namespace hiercoll
