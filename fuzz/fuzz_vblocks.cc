#include "fuzz/fuzz_vblocks.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace hiercoll::fuzz {

namespace {

// counts laid out as `kind` says; the generator is seeded per rank and side,
// so ranks lay out their buffers differently.
VSide lay_out(std::vector<int> counts, Displs kind, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> order(counts.size());
  std::iota(order.begin(), order.end(), 0);
  if (kind == Displs::kShuffled) std::shuffle(order.begin(), order.end(), rng);
  VSide s;
  s.displs.assign(counts.size(), 0);
  int64_t at = 0;
  for (int k : order) {
    if (kind != Displs::kInOrder) at += int64_t(rng() % 4);  // a gap of 0 to 3 elements
    s.displs[k] = int(at);
    at += counts[k];
  }
  s.elems = at + (kind == Displs::kInOrder ? 0 : int64_t(rng() % 3));
  s.counts = std::move(counts);
  return s;
}

VSide one_block(int count) { return VSide{{count}, {0}, count}; }

VSide none() { return VSide{{0}, {0}, 0}; }

}  // namespace

VBlocks v_blocks(const FuzzCase& c, int rank, int size, int root) {
  const uint64_t seed = c.displs_seed ^ (uint64_t(rank) * 0x9e3779b97f4a7c15ull);
  const std::vector<int> blocks(c.counts.begin(), c.counts.begin() + size);
  VBlocks b;
  switch (c.api) {
    case ApiOp::kGatherv:
      b.send = one_block(blocks[rank]);
      b.recv = rank == root ? lay_out(blocks, c.displs, seed) : none();
      break;
    case ApiOp::kScatterv:
      b.send = rank == root ? lay_out(blocks, c.displs, seed) : none();
      b.recv = one_block(blocks[rank]);
      break;
    case ApiOp::kAllgatherv:
      b.send = one_block(blocks[rank]);
      b.recv = lay_out(blocks, c.displs, seed);
      break;
    default: {  // alltoallv: row `rank` of the matrix out, column `rank` in
      std::vector<int> out(size), in(size);
      for (int k = 0; k < size; ++k) {
        out[k] = c.matrix[size_t(rank) * c.stride + k];
        in[k] = c.matrix[size_t(k) * c.stride + rank];
      }
      b.send = lay_out(out, c.displs, seed + 1);
      b.recv = lay_out(in, c.displs, seed + 2);
      break;
    }
  }
  return b;
}

}  // namespace hiercoll::fuzz
