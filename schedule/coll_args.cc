#include "schedule/coll_args.h"

#include <cstring>

namespace hiercoll {

static const char* const kOpNames[kNumOps] = {
    "bcast", "reduce", "allreduce", "allgather", "reduce_scatter", "alltoall",
    "scan", "exscan", "barrier", "gather", "scatter",
    "gatherv", "scatterv", "allgatherv", "alltoallv",
};

const char* op_name(Op op) { return kOpNames[static_cast<int>(op)]; }

bool op_from_name(const char* name, Op* op) {
  for (int i = 0; i < kNumOps; ++i) {
    if (std::strcmp(name, kOpNames[i]) == 0) {
      *op = static_cast<Op>(i);
      return true;
    }
  }
  return false;
}

}  // namespace hiercoll
