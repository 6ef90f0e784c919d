// report.html: one plain HTML page (no script, no network resource) with,
// per operation, the tables of speedups over native and of hier over the
// bound, and the plots; at the top, the run's header and a table of each
// implementation's range of speedups over the sizes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "bench/report_data.h"

namespace hcbench {

struct Figure {
  std::string src;      // relative to the page
  std::string caption;
};

struct ReportPage {
  std::string title;                                       // "hiercoll 1.0.0 benchmark"
  std::vector<std::string> header;                         // the run's header lines
  std::vector<std::pair<std::string, std::string>> links;  // text, href
  std::vector<std::vector<Figure>> figures;                // per data.ops entry, images that exist
  std::vector<std::string> notes;                          // said below the header
};

std::string report_html(const ReportData& data, const ReportPage& page);

}  // namespace hcbench
