#include "bench/gbench.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>

namespace hcbench {

namespace {

struct Series {
  std::string name;
  std::string label;
  std::vector<double> samples_us;
  std::vector<std::pair<std::string, double>> counters;
};

void register_series(const std::shared_ptr<Series>& s) {
  if (s->samples_us.empty()) return;
  benchmark::RegisterBenchmark(s->name.c_str(),
                               [s](benchmark::State& state) {
                                 size_t k = 0;
                                 for (auto _ : state) state.SetIterationTime(s->samples_us[k++ % s->samples_us.size()] * 1e-6);
                                 for (const auto& c : s->counters)
                                   if (!std::isnan(c.second)) state.counters[c.first] = c.second;
                                 state.SetLabel(s->label);
                               })
      ->UseManualTime()
      ->Iterations(static_cast<benchmark::IterationCount>(s->samples_us.size()))
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

bool write_gbench_json(const Results& results, const std::vector<std::string>& ops,
                       const std::vector<std::string>& impls,
                       const std::vector<std::pair<std::string, std::string>>& context, const std::string& path) {
  for (const auto& kv : context) benchmark::AddCustomContext(kv.first, kv.second);
  for (const std::string& op : ops)
    for (int64_t b : results.sizes(op))
      for (const std::string& impl : impls) {
        const std::vector<RootSummary> roots = results.per_root(op, b, impl);
        if (roots.empty()) continue;
        const std::string base = op + "/" + std::to_string(b) + "/" + impl;
        const bool rooted = roots.front().root >= 0;
        auto all = std::make_shared<Series>();
        all->name = base;
        all->label = results.algorithm(op, b, impl) + (results.wrong(op, b, impl) ? " WRONG RESULT" : "");
        for (const Measurement& m : results.all()) {
          if (m.op != op || m.bytes != b || m.impl != impl) continue;
          all->samples_us.insert(all->samples_us.end(), m.samples.begin(), m.samples.end());
          if (!rooted) continue;
          auto one = std::make_shared<Series>();
          one->name = base + "/root:" + std::to_string(m.root);
          one->label = m.algorithm;
          one->samples_us = m.samples;
          const Summary s = m.summary();
          one->counters = {{"median_us", s.median}, {"min_us", s.min},   {"max_us", s.max},
                           {"reps", double(s.n)},   {"root", double(m.root)},    {"bytes", static_cast<double>(b)}};
          register_series(one);
        }
        const RootAggregate a = results.aggregate(op, b, impl);
        if (rooted) {
          all->counters = {{"median_us", a.median},    {"best_root_us", a.min}, {"worst_root_us", a.max},
                           {"root_spread", a.spread()}, {"roots", double(a.roots)}, {"reps", double(a.reps)},
                           {"bytes", static_cast<double>(b)}};
        } else {
          const Summary s = summarize(all->samples_us);
          all->counters = {{"median_us", s.median}, {"min_us", s.min}, {"max_us", s.max},
                           {"reps", double(s.n)},   {"bytes", static_cast<double>(b)}};
        }
        register_series(all);
      }
  std::ofstream file(path);
  if (!file) return false;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&file);
  reporter.SetErrorStream(&std::cerr);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  return static_cast<bool>(file);
}

}  // namespace hcbench
