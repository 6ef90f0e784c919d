// Several jobs of the benchmark, compared.  Inside one job the
// implementations are interleaved, so their ratios are fair; between jobs
// the kernel places the processes on the cores anew, which moves the ratios
// more than the repetitions inside a job do (docs/BENCHMARK.md, "twins").
// So `./hiercoll bench --jobs N` runs N jobs and reports each ratio as its
// median over the jobs, with the lowest and highest.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "measure/csv.h"
#include "measure/stats.h"

namespace hcbench {

// One (operation, size, implementation) compared with the reference
// implementation over the jobs that measured both.
struct JobsRow {
  std::string op;
  int64_t bytes = 0;
  std::string impl;
  bool rooted = false;
  // Per job: impl's time / the reference's (above 1: the reference is
  // faster), on the median over roots; then on each one's worst root.
  Summary speedup;
  Summary worst_root_speedup;  // rooted operations only
  // Per job: the reference's worst root / best root.
  Summary reference_spread;    // rooted operations only
};

// The rows for every implementation other than `reference`, in the order
// of the first job's rows.
std::vector<JobsRow> compare_jobs(const std::vector<std::vector<CsvRow>>& jobs, const std::string& reference);

// A table per operation: size, then per implementation "median (min-max)"
// of the speedup, and the reference's root spread.
std::string jobs_table(const std::vector<JobsRow>& rows, const std::string& reference, int jobs);

// jobs.csv: op,bytes,impl,jobs,speedup_median,speedup_min,speedup_max,
// worst_root_speedup_median,..._min,..._max,spread_median,spread_min,spread_max
// (the last six empty for operations without a root).
void write_jobs_csv(std::ostream& out, const std::vector<JobsRow>& rows);

}  // namespace hcbench
