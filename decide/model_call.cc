#include "decide/model_call.h"

#include <algorithm>

namespace hiercoll {

SimCall bench_call(Op op, int64_t bytes, int size, int root) {
  SimCall c;
  CollArgs& a = c.args;
  a.op = op;
  a.size = size;
  a.root = root;
  switch (op) {
    case Op::kBarrier:
      a.count = 0;
      break;
    case Op::kBcast:  // units of bytes (runtime/plan_bcast.cc)
      a.count = std::max<int64_t>(1, bytes);
      c.unit_bytes = 1;
      break;
    case Op::kReduce:
    case Op::kAllreduce:
    case Op::kScan:
    case Op::kExscan:
    case Op::kReduceScatter:  // floats, as the benchmark reduces them
      a.count = std::max<int64_t>(1, bytes / 4);
      c.unit_bytes = 4;
      if (op == Op::kReduceScatter) a.counts.assign(size, a.count);
      break;
    case Op::kGatherv:
    case Op::kScatterv:
    case Op::kAllgatherv:
    case Op::kAlltoallv:  // the benchmark's uniform blocks of bytes (its --counts uniform)
      a.count = std::max<int64_t>(1, bytes);
      c.unit_bytes = 1;
      a.counts.assign(size, a.count);
      a.displs.resize(size);
      for (int r = 0; r < size; ++r) a.displs[r] = r * a.count;
      a.send_counts = a.counts;
      a.send_displs = a.displs;
      break;
    default:  // block collectives: a unit is one rank's block
      a.count = 1;
      c.unit_bytes = std::max<int64_t>(1, bytes);
      break;
  }
  return c;
}

int size_class(int64_t bytes) {
  if (bytes <= 0) return 0;
  const int k = 63 - __builtin_clzll(static_cast<unsigned long long>(bytes));
  // The bit below the leading one: past 1.5 x 2^k.
  const int upper = k > 0 && ((bytes >> (k - 1)) & 1) ? 1 : 0;
  return 1 + 2 * k + upper;
}

int64_t class_bytes(int c) {
  if (c <= 0) return 0;
  const int k = (c - 1) / 2;
  return (c - 1) % 2 ? (int64_t{3} << k) >> 1 : int64_t{1} << k;
}

}  // namespace hiercoll
