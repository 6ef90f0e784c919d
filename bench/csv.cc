#include "bench/csv.h"

#include <cmath>
#include <cstdio>

namespace hcbench {

const char* const kCsvHeader = "op,bytes,nodes,ppn,impl,algorithm,root,median_us,min_us,max_us,reps";

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string csv_number(double us) {
  if (std::isnan(us)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", us);
  return buf;
}

std::string csv_line(const CsvRow& r) {
  std::string line;
  line += csv_field(r.op) + ",";
  line += std::to_string(r.bytes) + ",";
  line += std::to_string(r.nodes) + ",";
  line += csv_field(r.ppn) + ",";
  line += csv_field(r.impl) + ",";
  line += csv_field(r.algorithm) + ",";
  line += std::to_string(r.root) + ",";
  line += csv_number(r.median_us) + ",";
  line += csv_number(r.min_us) + ",";
  line += csv_number(r.max_us) + ",";
  line += std::to_string(r.reps);
  return line;
}

void write_csv(std::ostream& out, const std::vector<CsvRow>& rows) {
  out << kCsvHeader << '\n';
  for (const CsvRow& r : rows) out << csv_line(r) << '\n';
}

}  // namespace hcbench
