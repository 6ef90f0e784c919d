// A group of ranks an algorithm runs on: `me` is this rank's index in the
// group, `ranks` maps group indices to peers of the builder's current view
// (null: index i is peer i).  Algorithms that run on part of their group
// (Rabenseifner's power-of-two core, recursive doubling's leftover ranks)
// call shared primitives with a sub-group.
#pragma once

#include <vector>

namespace hiercoll {

struct Group {
  int me = 0;
  int size = 1;
  const std::vector<int>* ranks = nullptr;
  int peer(int i) const { return ranks ? (*ranks)[i] : i; }
};

}  // namespace hiercoll
