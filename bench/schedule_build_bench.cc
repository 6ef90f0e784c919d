// What building one rank's schedule costs against its number of steps
// (Google Benchmark, no MPI): pipelined schedules of a long vector with ever
// smaller segments, on a middle rank of 16 (the builder derives every
// dependency from buffer hazards through an interval map; this shows the
// cost per step stays flat, i.e. construction is linear in the steps).
//   bazel run -c opt //bench:schedule_build_bench
#include <benchmark/benchmark.h>

#include <string>

#include "algorithms/registry.h"

namespace hiercoll {
namespace {

// Args: segments per message.  Op and algorithm from the benchmark's name.
void build(benchmark::State& state, Op op, const char* name) {
  const Algorithm* a = find_algorithm(op, name);
  CollArgs args;
  args.op = op;
  args.size = 16;
  args.rank = 5;
  args.root = 0;
  args.count = int64_t(1) << 26;
  args.seg_units = args.count / state.range(0);
  int64_t steps = 0;
  for (auto _ : state) {
    const Schedule s = build_schedule(*a, args);
    steps = static_cast<int64_t>(s.steps.size());
    benchmark::DoNotOptimize(s.steps.data());
  }
  state.SetComplexityN(steps);
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["ns_per_step"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

}  // namespace
}  // namespace hiercoll

int main(int argc, char** argv) {
  using hiercoll::Op;
  const struct {
    Op op;
    const char* algorithm;
  } sweeps[] = {{Op::kReduce, "pipelined_binary_tree"}, {Op::kReduce, "twotree"}, {Op::kBcast, "chain"},
                {Op::kAllreduce, "pipelined_binary_tree"}, {Op::kScan, "chain"}};
  for (const auto& w : sweeps)
    benchmark::RegisterBenchmark((std::string(hiercoll::op_name(w.op)) + "/" + w.algorithm).c_str(), hiercoll::build,
                                 w.op, w.algorithm)
        ->RangeMultiplier(4)
        ->Range(16, 65536)
        ->Complexity(benchmark::oN)
        ->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
