// What `hiercoll simulate` prints and writes: a table per run, and in --out
// DIR the file simulated.csv (header exactly kSimulatedCsvHeader, one row
// per simulated point) and critical_path.csv (per point, the critical
// path's time between nodes, inside nodes and reducing).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/calibration.h"
#include "sim/sweep.h"

namespace hiercoll {

extern const char* const kSimulatedCsvHeader;
extern const char* const kCriticalPathCsvHeader;

// "3+1+2", or "2" when every node has 2 (as bench's results.csv).
std::string ppn_text(const std::vector<int>& ranks_per_node);

void print_table(std::ostream& os, const SimOptions& opt, const std::vector<SimPoint>& points);
// The fitted figures (also as the options that set them), every point's
// measured and predicted time and error, the rows skipped, the median error.
void print_calibration(std::ostream& os, const CalibrationSet& set, const Calibration& c);
// False (and *error) when a file cannot be written.
bool write_csv_files(const std::string& dir, const SimOptions& opt, const std::vector<SimPoint>& points,
                     std::string* error);

}  // namespace hiercoll
