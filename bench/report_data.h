// What the benchmark's page (report.html) shows, from the files of one or
// more jobs: per operation, the speedup of every implementation over Open
// MPI's default (`native`: its time / the implementation's, so above 1 is
// faster) and hier's time over the link bound, each as median and range
// over the jobs (one job: the three are equal).
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "measure/csv.h"
#include "measure/stats.h"

namespace hcbench {

// The implementation the speedups are over.
extern const char* const kReportReference;

// One line of lower_bound.csv (bench/report.h): hier's median over the
// bound, and over the bound with every link busy.
struct BoundRow {
  std::string op;
  int64_t bytes = 0;
  double ratio = 0;
  double busy_ratio = 0;
};

// Reads lower_bound.csv; false, with the reason in *error, for another
// header or a malformed line.
bool read_bound_csv(std::istream& in, std::vector<BoundRow>* rows, std::string* error);

struct OpReport {
  std::string op;
  bool rooted = false;
  std::vector<int64_t> sizes;      // ascending
  std::vector<std::string> impls;  // those measured beside the reference, in order
  // (impl, bytes) -> reference's time / impl's (median over roots), over jobs.
  std::map<std::pair<std::string, int64_t>, Summary> speedup;
  // bytes -> hier / bound and hier / busy bound, over jobs (ops with a bound).
  std::map<int64_t, Summary> bound, busy_bound;
};

struct ReportData {
  int jobs = 0;
  std::string layout;   // "4 nodes x 2 ranks", "3 nodes (3+1+2 ranks)"
  bool has_reference = false;
  std::vector<OpReport> ops;  // in the first job's order
};

// From every job's results.csv rows and lower_bound.csv rows (empty when
// the job wrote none).
ReportData report_data(const std::vector<std::vector<CsvRow>>& jobs, const std::vector<std::vector<BoundRow>>& bounds);

}  // namespace hcbench
