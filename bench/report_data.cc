#include "bench/report_data.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "bench/jobs.h"

namespace hcbench {

const char* const kReportReference = "native";

namespace {

const char* const kBoundHeader = "op,bytes,nodes,ppn,bound_us,hier_median_us,ratio,busy_bound_us,busy_ratio";

std::string layout_text(const CsvRow& r) {
  const std::string nodes = std::to_string(r.nodes) + (r.nodes == 1 ? " node" : " nodes");
  if (r.ppn.find('+') != std::string::npos) return nodes + " (" + r.ppn + " ranks)";
  return nodes + " x " + r.ppn + (r.ppn == "1" ? " rank" : " ranks");
}

template <typename T>
void add_once(std::vector<T>* v, const T& x) {
  if (std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
}

// Every operation with its sizes and implementations, in order of appearance.
std::vector<OpReport> op_skeletons(const std::vector<std::vector<CsvRow>>& jobs) {
  std::vector<OpReport> ops;
  for (const std::vector<CsvRow>& rows : jobs)
    for (const CsvRow& r : rows) {
      auto it = std::find_if(ops.begin(), ops.end(), [&](const OpReport& o) { return o.op == r.op; });
      if (it == ops.end()) {
        it = ops.insert(ops.end(), OpReport());
        it->op = r.op;
      }
      it->rooted = it->rooted || r.root >= 0;
      add_once(&it->sizes, r.bytes);
      if (r.impl != kReportReference) add_once(&it->impls, r.impl);
    }
  for (OpReport& o : ops) std::sort(o.sizes.begin(), o.sizes.end());
  return ops;
}

}  // namespace

bool read_bound_csv(std::istream& in, std::vector<BoundRow>* rows, std::string* error) {
  std::vector<std::vector<std::string>> lines;
  if (!read_csv_fields(in, "lower_bound.csv", kBoundHeader, 9, &lines, error)) return false;
  for (const std::vector<std::string>& f : lines)
    rows->push_back({f[0], std::strtoll(f[1].c_str(), nullptr, 10), parse_number(f[6]), parse_number(f[8])});
  return true;
}

ReportData report_data(const std::vector<std::vector<CsvRow>>& jobs, const std::vector<std::vector<BoundRow>>& bounds) {
  ReportData d;
  d.jobs = static_cast<int>(jobs.size());
  for (const std::vector<CsvRow>& rows : jobs) {
    if (!rows.empty() && d.layout.empty()) d.layout = layout_text(rows.front());
    for (const CsvRow& r : rows) d.has_reference = d.has_reference || r.impl == kReportReference;
  }
  d.ops = op_skeletons(jobs);

  // compare_jobs(jobs, X) gives, per job, other / X: its rows of the
  // reference are the reference's time over X's, X's speedup.
  std::set<std::string> impls;
  for (const OpReport& o : d.ops) impls.insert(o.impls.begin(), o.impls.end());
  for (const std::string& impl : impls)
    for (const JobsRow& row : compare_jobs(jobs, impl)) {
      if (row.impl != kReportReference) continue;
      for (OpReport& o : d.ops)
        if (o.op == row.op) o.speedup[{impl, row.bytes}] = row.speedup;
    }

  std::map<std::pair<std::string, int64_t>, std::vector<double>> ratio, busy;
  for (const std::vector<BoundRow>& rows : bounds)
    for (const BoundRow& b : rows) {
      if (!std::isnan(b.ratio)) ratio[{b.op, b.bytes}].push_back(b.ratio);
      if (!std::isnan(b.busy_ratio)) busy[{b.op, b.bytes}].push_back(b.busy_ratio);
    }
  for (OpReport& o : d.ops)
    for (int64_t b : o.sizes)
      if (!ratio[{o.op, b}].empty()) {
        o.bound[b] = summarize(ratio[{o.op, b}]);
        o.busy_bound[b] = summarize(busy[{o.op, b}]);
      }
  return d;
}

}  // namespace hcbench
