#include "bench/jobs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "measure/sizes.h"

namespace hcbench {

namespace {

// One job's figures for one (op, bytes, impl): over its roots.
struct Point {
  double median = NAN, worst = NAN, best = NAN;
  bool rooted = false;
};

using Key = std::tuple<std::string, int64_t, std::string>;

std::map<Key, Point> points_of(const std::vector<CsvRow>& rows) {
  std::map<Key, std::vector<double>> per_root;
  std::map<Key, bool> rooted;
  for (const CsvRow& r : rows) {
    const Key k{r.op, r.bytes, r.impl};
    per_root[k].push_back(r.median_us);
    if (r.root >= 0) rooted[k] = true;
  }
  std::map<Key, Point> points;
  for (const auto& [k, medians] : per_root) {
    Point p;
    p.median = median(medians);
    p.worst = *std::max_element(medians.begin(), medians.end());
    p.best = *std::min_element(medians.begin(), medians.end());
    p.rooted = rooted[k];
    points[k] = p;
  }
  return points;
}

std::string cell(const Summary& s) {
  if (s.n == 0) return "-";
  char buf[64];
  if (s.n == 1) std::snprintf(buf, sizeof buf, "%.2f", s.median);
  else std::snprintf(buf, sizeof buf, "%.2f (%.2f-%.2f)", s.median, s.min, s.max);
  return buf;
}

std::string csv_summary(const Summary& s) {
  if (s.n == 0) return ",,";
  return csv_number(s.median) + "," + csv_number(s.min) + "," + csv_number(s.max);
}

}  // namespace

std::vector<JobsRow> compare_jobs(const std::vector<std::vector<CsvRow>>& jobs, const std::string& reference) {
  std::vector<std::map<Key, Point>> points;
  for (const std::vector<CsvRow>& rows : jobs) points.push_back(points_of(rows));
  std::vector<Key> order;  // the first job's order, then anything later jobs add
  for (const std::vector<CsvRow>& rows : jobs)
    for (const CsvRow& r : rows) {
      const Key k{r.op, r.bytes, r.impl};
      if (r.impl != reference && std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
    }
  std::vector<JobsRow> out;
  for (const Key& k : order) {
    const Key ref{std::get<0>(k), std::get<1>(k), reference};
    std::vector<double> speedups, worst, spread;
    bool rooted = false;
    for (const std::map<Key, Point>& job : points) {
      const auto a = job.find(k), r = job.find(ref);
      if (a == job.end() || r == job.end()) continue;
      rooted = a->second.rooted;
      speedups.push_back(speedup(a->second.median, r->second.median));
      if (rooted) {
        worst.push_back(speedup(a->second.worst, r->second.worst));
        spread.push_back(r->second.worst / r->second.best);
      }
    }
    if (speedups.empty()) continue;
    JobsRow row;
    std::tie(row.op, row.bytes, row.impl) = k;
    row.rooted = rooted;
    row.speedup = summarize(speedups);
    row.worst_root_speedup = summarize(worst);
    row.reference_spread = summarize(spread);
    out.push_back(row);
  }
  return out;
}

std::string jobs_table(const std::vector<JobsRow>& rows, const std::string& reference, int jobs) {
  std::string text;
  std::vector<std::string> ops;
  for (const JobsRow& r : rows)
    if (std::find(ops.begin(), ops.end(), r.op) == ops.end()) ops.push_back(r.op);
  for (const std::string& op : ops) {
    text += op + ": speedup of " + reference + " (other / " + reference + "), median (lowest-highest) over " +
            std::to_string(jobs) + " jobs\n";
    for (const JobsRow& r : rows) {
      if (r.op != op) continue;
      char line[512];
      std::snprintf(line, sizeof line, r.rooted ? "  %6s  vs %-24s %-22s" : "  %6s  vs %-24s %s",
                    format_size(r.bytes).c_str(), r.impl.c_str(), cell(r.speedup).c_str());
      text += line;
      if (r.rooted)
        text += "  worst root " + cell(r.worst_root_speedup) + "  " + reference + " root spread " +
                cell(r.reference_spread);
      text += "\n";
    }
    text += "\n";
  }
  return text;
}

void write_jobs_csv(std::ostream& out, const std::vector<JobsRow>& rows) {
  out << "op,bytes,impl,jobs,speedup_median,speedup_min,speedup_max,worst_root_speedup_median,"
         "worst_root_speedup_min,worst_root_speedup_max,spread_median,spread_min,spread_max\n";
  for (const JobsRow& r : rows)
    out << csv_field(r.op) << ',' << r.bytes << ',' << csv_field(r.impl) << ',' << r.speedup.n << ','
        << csv_summary(r.speedup) << ',' << csv_summary(r.worst_root_speedup) << ','
        << csv_summary(r.reference_spread) << '\n';
}

}  // namespace hcbench
