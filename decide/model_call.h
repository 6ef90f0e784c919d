// A call as the model costs it: an operation of a size (bench's meaning of
// bytes per operation, select/tuning_file.h tuning_bytes) laid out in
// schedule units, and the size class the decision is kept for.
#pragma once

#include <cstdint>

#include "schedule/coll_args.h"

namespace hiercoll {

struct SimCall {
  CollArgs args;           // rank set per rank; count, root, counts
  int64_t unit_bytes = 0;  // bytes of one unit
};
// bcast in bytes, the reductions in floats (as the benchmark reduces), the
// block collectives one unit per block, the v-variants uniform blocks.
SimCall bench_call(Op op, int64_t bytes, int size, int root);

// Sizes are decided per half octave: class 0 holds 0 bytes, then [1, 2),
// [2, 3), [3, 4), [4, 6), [6, 8), [8, 12), ...: 2^k and 3 x 2^(k-1) start
// a class, so powers of two are their class's own representative.
constexpr int kSizeClasses = 2 * 63 + 1;
int size_class(int64_t bytes);
// The smallest size of class c: the size the model costs for the class.
int64_t class_bytes(int c);

}  // namespace hiercoll
