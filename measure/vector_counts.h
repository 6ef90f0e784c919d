// Block sizes of the v-variants in the benchmark (--counts): every rank's
// block the mean size (uniform), one rank holding half of all bytes
// (heavy), or sizes drawn from [0, 2 x mean] with a seed (random).  Pure
// functions of (pattern, mean, ranks, source, destination), so every rank
// computes every block alike without asking.
#pragma once

#include <cstdint>
#include <string>

namespace hcbench {

struct CountsPattern {
  enum Kind { kUniform, kHeavy, kRandom };
  Kind kind = kUniform;
  uint32_t seed = 1;
  std::string name() const;  // "uniform", "heavy", "random:<seed>"
};

// "uniform", "heavy", "random" or "random:<seed>".
bool parse_counts(const std::string& text, CountsPattern* out, std::string* error);

// Bytes rank `src` sends rank `dst` (alltoallv); for the other v-variants
// rank src's block (call with dst 0).
int64_t block_bytes(const CountsPattern& p, int64_t mean, int ranks, int src, int dst);

}  // namespace hcbench
