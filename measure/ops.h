// The operations the benchmark and the tuner measure, as data: name,
// whether they have a root, whether they reduce (and so carry floats), and
// the name of the hiercoll operation whose registry holds their flat
// algorithms.
#pragma once

#include <string>
#include <vector>

namespace hcbench {

enum class BenchOp {
  kBcast, kReduce, kAllreduce, kAllgather, kAlltoall, kReduceScatterBlock,
  kScan, kExscan, kBarrier, kGather, kScatter,
  kGatherv, kScatterv, kAllgatherv, kAlltoallv, kAlltoallw,
};

struct OpInfo {
  BenchOp op;
  const char* name;        // command line and CSV name
  bool rooted;             // measured for every root (or a sample)
  bool reduction;          // data are floats combined with MPI_SUM
  bool sized;              // false: barrier (measured once, bytes = 0)
  const char* flat_op;     // hiercoll registry operation (algorithms/registry.h)
  const char* bytes_mean;  // what `bytes` counts, for the README and headers
  bool vector = false;     // a v-variant: block sizes follow --counts (measure/vector_counts.h)
};

const std::vector<OpInfo>& all_ops();
// nullptr when unknown.
const OpInfo* find_op(const std::string& name);
const OpInfo& op_info(BenchOp op);
// "bcast, reduce, ..." (for messages).
std::string op_names();

}  // namespace hcbench
