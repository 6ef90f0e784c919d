#include "sim/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "hier/hier_compose.h"
#include "measure/ops.h"
#include "sim/engine.h"
#include "sim/nelder_mead.h"
#include "sim/sweep.h"

namespace hiercoll {

namespace {

// bench's ppn column: "2" (every node) or "3+1+2" (node by node).
bool ranks_per_node(int nodes, const std::string& ppn, std::vector<int>* out) {
  out->clear();
  std::stringstream ss(ppn);
  std::string item;
  while (std::getline(ss, item, '+')) {
    char* end = nullptr;
    const long k = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end || k < 1 || k > 4096) return false;
    out->push_back(static_cast<int>(k));
  }
  if (out->size() == 1) out->assign(static_cast<size_t>(nodes), out->front());
  return nodes >= 1 && static_cast<int>(out->size()) == nodes;
}

std::string row_name(const hcbench::CsvRow& r) {
  std::string s = r.op + " " + std::to_string(r.bytes) + " " + r.impl;
  if (r.root >= 0) s += " root " + std::to_string(r.root);
  return s;
}

// The point of one row, or false with *why it cannot be simulated.
bool point_of(const hcbench::CsvRow& row, const Layout& L, const LayoutFacts& F, const TuningEntry* tuning,
              bool have_tuning, CalibrationPoint* pt, std::string* why) {
  if (!(row.median_us > 0) || !std::isfinite(row.median_us)) {
    *why = "no measured time";
    return false;
  }
  if (row.impl.find('@') != std::string::npos) {
    *why = "hints (@...) are not simulated";
    return false;
  }
  const hcbench::OpInfo* info = hcbench::find_op(row.op);
  Op op;
  if (!info || !op_from_name(info->flat_op, &op)) {
    *why = "unknown operation";
    return false;
  }
  if (row.impl == "tuned" && !have_tuning) {
    *why = "tuned needs --tuning FILE (the file the run used)";
    return false;
  }
  SimMethod m;
  if (!method_for_impl(row.impl, op, tuning, &m, why)) return false;
  if (row.root >= L.size) {
    *why = "root outside the layout";
    return false;
  }
  const SimCall call = bench_call(op, row.bytes, L.size, std::max(0, row.root));
  pt->row = row;
  pt->unit_bytes = call.unit_bytes;
  return call_schedules(L, F, call, m, &pt->call, why);
}

double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t k = v.size() / 2;
  return v.size() % 2 ? v[k] : 0.5 * (v[k - 1] + v[k]);
}

// The fitted figures as the fit's variables: their logarithms.  The five
// figures, and with cores the message handling time (from 1 us where none
// is given: a logarithm needs a start above 0).
std::vector<double> to_logs(const CostModel& m) {
  std::vector<double> x = {std::log(m.alpha_us), std::log(m.bandwidth_gbps), std::log(m.shm_alpha_us),
                           std::log(m.shm_bandwidth_gbps), std::log(m.reduce_gbps)};
  if (m.cores > 0) x.push_back(std::log(m.message_cpu_us > 0 ? m.message_cpu_us : 1.0));
  return x;
}
// The other figures (the link's burst, the cores) stay those of `base`.
CostModel from_logs(const std::vector<double>& x, const CostModel& base) {
  CostModel m = base;
  m.alpha_us = std::exp(x[0]);
  m.bandwidth_gbps = std::exp(x[1]);
  m.shm_alpha_us = std::exp(x[2]);
  m.shm_bandwidth_gbps = std::exp(x[3]);
  m.reduce_gbps = std::exp(x[4]);
  if (x.size() > 5) m.message_cpu_us = std::exp(x[5]);
  return m;
}

}  // namespace

double relative_error(double predicted, double measured) { return predicted / measured - 1; }

bool calibration_set(const std::vector<hcbench::CsvRow>& rows, const std::string& placement,
                     const TuningFile* tuning, CalibrationSet* out, std::string* error) {
  *out = CalibrationSet{};
  if (rows.empty()) {
    *error = "no measurements in the file";
    return false;
  }
  const hcbench::CsvRow& first = rows.front();
  std::vector<int> per_node;
  if (!ranks_per_node(first.nodes, first.ppn, &per_node)) {
    *error = "bad layout in the file: nodes " + std::to_string(first.nodes) + ", ppn '" + first.ppn + "'";
    return false;
  }
  for (const hcbench::CsvRow& r : rows)
    if (r.nodes != first.nodes || r.ppn != first.ppn) {
      *error = "rows of several layouts (" + std::to_string(first.nodes) + " x " + first.ppn + " and " +
               std::to_string(r.nodes) + " x " + r.ppn + "): calibrate one run at a time";
      return false;
    }
  out->layout = layout_of(per_node, placement);
  const LayoutFacts F = layout_facts(out->layout);
  const TuningEntry* entry = tuning ? find_entry(*tuning, layout_key(out->layout)) : nullptr;
  for (const hcbench::CsvRow& r : rows) {
    CalibrationPoint pt;
    std::string why;
    if (point_of(r, out->layout, F, entry, tuning != nullptr, &pt, &why)) out->points.push_back(std::move(pt));
    else out->skipped.push_back(row_name(r) + ": " + why);
  }
  if (out->points.empty()) {
    *error = "none of the " + std::to_string(rows.size()) +
             " measurements is of a hiercoll implementation the simulator can run (" +
             (out->skipped.empty() ? std::string() : out->skipped.front()) + ")";
    return false;
  }
  return true;
}

bool read_calibration_set(std::istream& csv, const std::string& placement, const TuningFile* tuning,
                          CalibrationSet* out, std::string* error) {
  std::vector<hcbench::CsvRow> rows;
  if (!hcbench::read_csv(csv, &rows, error)) return false;
  return calibration_set(rows, placement, tuning, out, error);
}

std::vector<double> predict(const CalibrationSet& set, const CostModel& m) {
  std::vector<double> out;
  out.reserve(set.points.size());
  for (const CalibrationPoint& pt : set.points) {
    SimResult res;
    std::string error;
    const bool ok = simulate(SimInput{&pt.call.schedules, &set.layout.node_of, pt.unit_bytes}, m, &res, &error);
    out.push_back(ok ? res.time_us : NAN);
  }
  return out;
}

Calibration calibrate(const CalibrationSet& set, const CostModel& start, FitObjective objective) {
  auto misfit = [&](const std::vector<double>& x) {
    const std::vector<double> pred = predict(set, from_logs(x, start));
    double sum = 0;
    for (size_t i = 0; i < pred.size(); ++i) {
      const double d = std::log(pred[i] / set.points[i].row.median_us);
      // A zero prediction (nothing costs) is far off.
      sum += !std::isfinite(d) ? 1e3 : objective == FitObjective::kSquares ? d * d : std::fabs(d);
    }
    return sum;
  };
  MinimizeOptions opt;
  opt.step = std::log(4.0);  // the simplex starts a factor 4 around the start
  opt.max_evaluations = 2500;
  opt.tolerance = 1e-8;
  opt.restarts = 5;
  const MinimizeResult r = minimize(misfit, to_logs(start), opt);
  Calibration c;
  c.model = from_logs(r.x, start);
  c.predicted_us = predict(set, c.model);
  c.evaluations = r.evaluations;
  std::vector<double> errors;
  for (size_t i = 0; i < c.predicted_us.size(); ++i)
    errors.push_back(std::fabs(relative_error(c.predicted_us[i], set.points[i].row.median_us)));
  c.median_error = median_of(errors);
  return c;
}

}  // namespace hiercoll
