// Writes OUT_DIR/report.html, the page a person opens after a benchmark
// (bench/report_html.h), with its plots in OUT_DIR/plots, from the folders
// of one job (OUT_DIR itself: `./hiercoll bench`) or several (`--jobs N`):
// their results.csv, lower_bound.csv, summary.txt and time plots.
#pragma once

#include <string>
#include <vector>

namespace hcbench {

// draw: run gnuplot on the page's plots. Returns one line for the log:
// where the page is, or why it was not written.
std::string write_report(const std::string& out_dir, const std::vector<std::string>& job_dirs, bool draw);

}  // namespace hcbench
