// Late arrivals (--skew): ranks that enter each timed call late by a given
// delay, to measure collectives whose processes do not arrive together
// (the autotuning paper's §5 experiment).
//   fixed   "1@2000,2@3000,3@4000": rank 1 late by 2000 µs, ...
//   random  "random:K:MAX_US:SEED": per repetition, K distinct ranks late
//           by delays drawn uniformly from [0, MAX_US], from SEED and the
//           repetition's number (every rank draws the same).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hcbench {

struct Skew {
  std::vector<std::pair<int, double>> fixed;  // rank, µs
  int random_ranks = 0;
  double random_max_us = 0;
  uint64_t seed = 0;
  std::string text;  // the spec as given
  bool any() const { return !fixed.empty() || random_ranks > 0; }
  // Every rank's delay (µs) in repetition `rep` of a job of `size` ranks.
  std::vector<double> delays(int rep, int size) const;
};

// "" on success, else what is wrong with the spec.
std::string parse_skew(const std::string& spec, Skew* skew);

}  // namespace hcbench
