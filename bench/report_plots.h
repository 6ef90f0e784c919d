// The report page's plots (gnuplot scripts and data, bench/gnuplot.h), per
// operation:
//   <op>_speedup.png  every implementation's speedup over native against
//                     the size, a line at 1.0 (native itself), the range
//                     over jobs as error bars;
//   <op>_bound.png    hier's time over the link bound (and over the bound
//                     with every link busy), where the operation has one.
#pragma once

#include <string>
#include <vector>

#include "bench/gnuplot.h"
#include "bench/report_data.h"

namespace hcbench {

// The .dat and .gp files; context is the plots' subtitle.
std::vector<TextFile> report_plot_files(const ReportData& data, const std::string& context);

// The PNG names report_plot_files draws for op (speedup, bound; "" where none).
std::string speedup_png(const OpReport& op, const ReportData& data);
std::string bound_png(const OpReport& op);

}  // namespace hcbench
