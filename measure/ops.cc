#include "measure/ops.h"

namespace hcbench {

const std::vector<OpInfo>& all_ops() {
  static const std::vector<OpInfo> ops = {
      {BenchOp::kBcast, "bcast", true, false, true, "bcast", "message size"},
      {BenchOp::kReduce, "reduce", true, true, true, "reduce", "vector size (floats)"},
      {BenchOp::kAllreduce, "allreduce", false, true, true, "allreduce", "vector size (floats)"},
      {BenchOp::kAllgather, "allgather", false, false, true, "allgather", "bytes each rank contributes"},
      {BenchOp::kAlltoall, "alltoall", false, false, true, "alltoall", "bytes each rank sends to each rank"},
      {BenchOp::kReduceScatterBlock, "reduce_scatter_block", false, true, true, "reduce_scatter",
       "result block per rank (floats)"},
      {BenchOp::kScan, "scan", false, true, true, "scan", "vector size (floats)"},
      {BenchOp::kExscan, "exscan", false, true, true, "exscan", "vector size (floats)"},
      {BenchOp::kBarrier, "barrier", false, false, false, "barrier", "no data"},
      {BenchOp::kGather, "gather", true, false, true, "gather", "bytes each rank contributes"},
      {BenchOp::kScatter, "scatter", true, false, true, "scatter", "bytes each rank receives"},
      {BenchOp::kGatherv, "gatherv", true, false, true, "gatherv", "mean bytes each rank contributes", true},
      {BenchOp::kScatterv, "scatterv", true, false, true, "scatterv", "mean bytes each rank receives", true},
      {BenchOp::kAllgatherv, "allgatherv", false, false, true, "allgatherv", "mean bytes each rank contributes",
       true},
      {BenchOp::kAlltoallv, "alltoallv", false, false, true, "alltoallv", "mean bytes each rank sends to each rank",
       true},
      // Alltoallv's blocks with a datatype per peer (MPI_BYTE each); hiercoll
      // runs it as an alltoallv, so alltoallv's knobs force it.
      {BenchOp::kAlltoallw, "alltoallw", false, false, true, "alltoallv", "mean bytes each rank sends to each rank",
       true},
  };
  return ops;
}

const OpInfo* find_op(const std::string& name) {
  for (const OpInfo& o : all_ops())
    if (name == o.name) return &o;
  return nullptr;
}

const OpInfo& op_info(BenchOp op) {
  for (const OpInfo& o : all_ops())
    if (o.op == op) return o;
  return all_ops().front();  // unreachable: every BenchOp is listed
}

std::string op_names() {
  std::string s;
  for (const OpInfo& o : all_ops()) s += std::string(s.empty() ? "" : ", ") + o.name;
  return s;
}

}  // namespace hcbench
