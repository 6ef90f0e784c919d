#include "sim/report.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "measure/csv.h"

namespace hiercoll {

const char* const kSimulatedCsvHeader = "op,bytes,nodes,ppn,impl,algorithm,predicted_us";
const char* const kCriticalPathCsvHeader = "op,bytes,nodes,ppn,impl,predicted_us,inter_node_us,intra_node_us,reduce_us";

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string percent(double part, double whole) { return whole > 0 ? fixed(100 * part / whole, 0) + "%" : "-"; }

// The columns both files start with.
std::string key_fields(const SimOptions& opt, const SimPoint& p) {
  return hcbench::csv_field(p.op) + "," + std::to_string(p.bytes) + "," + std::to_string(opt.ranks_per_node.size()) +
         "," + hcbench::csv_field(ppn_text(opt.ranks_per_node)) + "," + hcbench::csv_field(p.impl) + ",";
}

}  // namespace

std::string ppn_text(const std::vector<int>& ranks_per_node) {
  bool uniform = true;
  for (int k : ranks_per_node) uniform = uniform && k == ranks_per_node.front();
  if (uniform) return std::to_string(ranks_per_node.front());
  std::string s;
  for (size_t i = 0; i < ranks_per_node.size(); ++i) s += (i ? "+" : "") + std::to_string(ranks_per_node[i]);
  return s;
}

std::string model_text(const CostModel& m) {
  char line[256];
  std::snprintf(line, sizeof line,
                "between nodes alpha %.3g us, %.4g GB/s per node link (shared by its ranks); inside a node %.3g us, "
                "%.4g GB/s; reduce %.4g GB/s",
                m.alpha_us, m.bandwidth_gbps, m.shm_alpha_us, m.shm_bandwidth_gbps, m.reduce_gbps);
  std::string s = line;
  if (m.cores > 0) {
    std::snprintf(line, sizeof line, "; %d cores shared by %s, %.3g us to handle a message", m.cores,
                  m.cores_shared_by_all ? "all ranks" : "a node's ranks", m.message_cpu_us);
    s += line;
  }
  if (m.eager_limit > 0 || m.shm_eager_limit > 0) {
    std::snprintf(line, sizeof line, "; rendezvous from %.0f bytes between nodes, %.0f inside a node (0: never)",
                  m.eager_limit, m.shm_eager_limit);
    s += line;
  }
  return s;
}

void print_table(std::ostream& os, const SimOptions& opt, const std::vector<SimPoint>& points) {
  char line[512];
  std::snprintf(line, sizeof line, "# %zu nodes x %s ranks (%s); %s\n", opt.ranks_per_node.size(),
                ppn_text(opt.ranks_per_node).c_str(), opt.placement.c_str(), model_text(opt.model).c_str());
  os << line;
  std::snprintf(line, sizeof line, "%-12s %10s %-22s %-34s %14s %6s %6s %6s\n", "op", "bytes", "impl", "algorithm",
                "predicted_us", "inter", "intra", "reduce");
  os << line;
  for (const SimPoint& p : points) {
    if (!p.simulated) {
      std::snprintf(line, sizeof line, "%-12s %10lld %-22s skipped: %s\n", p.op.c_str(),
                    static_cast<long long>(p.bytes), p.impl.c_str(), p.note.c_str());
      os << line;
      continue;
    }
    const TimeShares& c = p.result.critical;
    const double t = p.derived ? 0 : p.result.time_us;  // no critical path: its shares "-"
    std::snprintf(line, sizeof line, "%-12s %10lld %-22s %-34s %14s %6s %6s %6s%s%s\n", p.op.c_str(),
                  static_cast<long long>(p.bytes), p.impl.c_str(), p.algorithm.c_str(), fixed(p.result.time_us, 2).c_str(),
                  percent(c.inter_us, t).c_str(), percent(c.intra_us, t).c_str(), percent(c.reduce_us, t).c_str(),
                  p.note.empty() ? "" : "  # ", p.note.c_str());
    os << line;
  }
}

void print_calibration(std::ostream& os, const CalibrationSet& set, const Calibration& c) {
  char line[512];
  os << "# fitted to " << set.points.size() << " measurements (" << set.skipped.size() << " rows skipped), "
     << c.evaluations << " simulations of the set\n";
  os << "fitted: " << model_text(c.model) << "\n";
  std::snprintf(line, sizeof line,
                "  --alpha %.4g --bandwidth %.4g --shm-alpha %.4g --shm-bandwidth %.4g --reduce-bandwidth %.4g\n",
                c.model.alpha_us, c.model.bandwidth_gbps, c.model.shm_alpha_us, c.model.shm_bandwidth_gbps,
                c.model.reduce_gbps);
  os << line;
  if (c.model.cores > 0) {
    std::snprintf(line, sizeof line, "  --cores %d --cores-shared-by %s --message-cpu %.4g\n", c.model.cores,
                  c.model.cores_shared_by_all ? "all" : "node", c.model.message_cpu_us);
    os << line;
  }
  std::snprintf(line, sizeof line, "%-10s %10s %-22s %4s %-34s %12s %12s %8s\n", "op", "bytes", "impl", "root",
                "algorithm", "measured_us", "predicted_us", "error");
  os << line;
  for (size_t i = 0; i < set.points.size(); ++i) {
    const hcbench::CsvRow& r = set.points[i].row;
    std::snprintf(line, sizeof line, "%-10s %10lld %-22s %4s %-34s %12.1f %12.1f %7.1f%%\n", r.op.c_str(),
                  static_cast<long long>(r.bytes), r.impl.c_str(), r.root < 0 ? "-" : std::to_string(r.root).c_str(),
                  r.algorithm.c_str(), r.median_us, c.predicted_us[i],
                  100 * relative_error(c.predicted_us[i], r.median_us));
    os << line;
  }
  for (const std::string& s : set.skipped) os << "skipped " << s << "\n";
  std::snprintf(line, sizeof line, "median error %.1f%% over %zu points\n", 100 * c.median_error, set.points.size());
  os << line;
}

bool write_csv_files(const std::string& dir, const SimOptions& opt, const std::vector<SimPoint>& points,
                     std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);  // DIR and its parents, as mkdir -p
  if (ec) {
    *error = "cannot create " + dir + ": " + ec.message();
    return false;
  }
  std::ofstream sim(dir + "/simulated.csv"), crit(dir + "/critical_path.csv");
  if (!sim || !crit) {
    *error = "cannot write " + dir + "/simulated.csv and critical_path.csv";
    return false;
  }
  sim << kSimulatedCsvHeader << "\n";
  crit << kCriticalPathCsvHeader << "\n";
  for (const SimPoint& p : points) {
    if (!p.simulated) continue;
    const TimeShares& c = p.result.critical;
    sim << key_fields(opt, p) << hcbench::csv_field(p.algorithm) << "," << fixed(p.result.time_us, 3) << "\n";
    if (p.derived) continue;  // no critical path
    crit << key_fields(opt, p) << fixed(p.result.time_us, 3) << "," << fixed(c.inter_us, 3) << ","
         << fixed(c.intra_us, 3) << "," << fixed(c.reduce_us, 3) << "\n";
  }
  if (!sim.flush() || !crit.flush()) {
    *error = "cannot write " + dir + "/simulated.csv and critical_path.csv";
    return false;
  }
  return true;
}

}  // namespace hiercoll
