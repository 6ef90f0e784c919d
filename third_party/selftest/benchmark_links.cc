// Proves that @benchmark//:benchmark compiles and links.
#include <benchmark/benchmark.h>

#include <vector>

static void BM_VectorSum(benchmark::State& state) {
  std::vector<int> v(static_cast<std::size_t>(state.range(0)), 1);
  for (auto _ : state) {
    long sum = 0;
    for (int x : v) sum += x;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_VectorSum)->Arg(64);

BENCHMARK_MAIN();
