// `hiercoll simulate --calibrate results.csv`: the cost model's five
// figures (alpha, beta, alpha_shm, beta_shm, gamma) fitted to a benchmark
// run's measurements.  Every row of bench's results.csv that names a
// hiercoll implementation (hier, flat, flat:<algorithm>, hier:<name>,
// tuned with --tuning) becomes a point: the same call (operation, bytes,
// root) on the same layout, its schedules built once; the fit then
// simulates every point under candidate figures and minimises the squared
// (or absolute: FitObjective) error of log(predicted / measured) (relative errors, so 8 B and 4 MiB
// weigh alike) by Nelder-Mead over the figures' logarithms (positive,
// and spanning decades).
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "measure/csv.h"
#include "select/tuning_file.h"
#include "sim/call_schedules.h"
#include "sim/cost_model.h"
#include "topo/topology.h"

namespace hiercoll {

struct CalibrationPoint {
  hcbench::CsvRow row;    // the measurement
  CallSchedules call;     // what the runtime runs for it
  int64_t unit_bytes = 1;
};

struct CalibrationSet {
  Layout layout;
  std::vector<CalibrationPoint> points;
  std::vector<std::string> skipped;  // "row: why" for rows that cannot be simulated
};

// The rows of one benchmark run (all of one layout; the placement is not
// in the file: `placement`, slot or node, says it).  The tuning file is
// needed for rows of `tuned` (else they are skipped).  False with *error
// for a file bench did not write, several layouts, or no row to simulate.
bool calibration_set(const std::vector<hcbench::CsvRow>& rows, const std::string& placement,
                     const TuningFile* tuning, CalibrationSet* out, std::string* error);
bool read_calibration_set(std::istream& csv, const std::string& placement, const TuningFile* tuning,
                          CalibrationSet* out, std::string* error);

// Predicted time of every point under `m` (NaN where the schedules do not
// run: cannot happen for schedules the runtime builds).
std::vector<double> predict(const CalibrationSet& set, const CostModel& m);

struct Calibration {
  CostModel model;
  std::vector<double> predicted_us;  // per point
  double median_error = 0;           // median of |predicted / measured - 1|
  int evaluations = 0;               // of the whole set
};
// What the fit minimises over the points' d = log(predicted / measured):
// the sum of d^2 (least squares), or of |d| (least absolute deviations:
// the fit of the median, robust to the few points the model cannot place,
// such as one root of an 8 B bcast measured 40% above another).
enum class FitObjective { kSquares, kAbsolute };
// Fits the five figures, starting from `start`.
Calibration calibrate(const CalibrationSet& set, const CostModel& start,
                      FitObjective objective = FitObjective::kSquares);

// Relative error of a prediction: predicted / measured - 1.
double relative_error(double predicted, double measured);

}  // namespace hiercoll
