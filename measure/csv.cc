#include "measure/csv.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

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

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') fields.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') fields.back() += line[++i];
      else quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

double parse_number(const std::string& s) { return s == "nan" ? NAN : std::strtod(s.c_str(), nullptr); }

bool read_csv_fields(std::istream& in, const std::string& name, const char* header, size_t fields,
                     std::vector<std::vector<std::string>>* rows, std::string* error) {
  std::string line;
  if (!std::getline(in, line) || line != header) {
    *error = "not a hiercoll " + name + " (header differs)";
    return false;
  }
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    rows->push_back(split_csv_line(line));
    if (rows->back().size() != fields) {
      *error = "line " + std::to_string(number) + ": " + std::to_string(rows->back().size()) + " fields, expected " +
               std::to_string(fields);
      return false;
    }
  }
  return true;
}

bool read_csv(std::istream& in, std::vector<CsvRow>* rows, std::string* error) {
  std::vector<std::vector<std::string>> lines;
  if (!read_csv_fields(in, "results.csv", kCsvHeader, 11, &lines, error)) return false;
  for (const std::vector<std::string>& f : lines) {
    CsvRow r;
    r.op = f[0];
    r.bytes = std::strtoll(f[1].c_str(), nullptr, 10);
    r.nodes = std::atoi(f[2].c_str());
    r.ppn = f[3];
    r.impl = f[4];
    r.algorithm = f[5];
    r.root = std::atoi(f[6].c_str());
    r.median_us = parse_number(f[7]);
    r.min_us = parse_number(f[8]);
    r.max_us = parse_number(f[9]);
    r.reps = std::atoi(f[10].c_str());
    rows->push_back(r);
  }
  return true;
}

}  // namespace hcbench
