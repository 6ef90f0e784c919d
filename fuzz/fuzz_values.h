// The contents of a fuzz case's buffers: random bytes for data movement,
// values that keep every reduction well defined (no signed overflow, no
// saturation of Open MPI's 8- and 16-bit sums) for reductions.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "fuzz/fuzz_types.h"

namespace hiercoll::fuzz {

// A buffer of `elems` elements of t at `elem0()`, every byte a sentinel.
class TypedBuffer {
 public:
  TypedBuffer(const FuzzType& t, int64_t elems);
  char* elem0() { return bytes_.data() - lb_; }
  std::vector<char>& bytes() { return bytes_; }
  const std::vector<char>& bytes() const { return bytes_; }
  MPI_Aint extent() const { return extent_; }

 private:
  MPI_Aint lb_ = 0, extent_ = 0;
  std::vector<char> bytes_;
};

// Writes the input of `elems` elements into buf (made for `elems` elements of t):
// random bytes without an operation (data movement), else values for it.
void fill_input(const FuzzType& t, const FuzzOp* op, std::mt19937_64& rng, TypedBuffer* buf);

// "" when a and b (results of `elems` elements of a floating-point type t
// summed or multiplied over `ranks` contributions) agree to rounding,
// else the first element that does not.
std::string compare_to_rounding(const FuzzType& t, const std::vector<char>& a, const std::vector<char>& b,
                                int ranks);

}  // namespace hiercoll::fuzz
