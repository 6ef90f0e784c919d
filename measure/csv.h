// results.csv: one row per (operation, size, implementation, root).
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace hcbench {

// The header, exactly (README and tests rely on it).
extern const char* const kCsvHeader;

struct CsvRow {
  std::string op;
  int64_t bytes = 0;
  int nodes = 0;
  std::string ppn;        // "2", or the ranks of each node joined by '+' ("3+1+2")
  std::string impl;       // as given on the command line ("hier", "flat:ring", ...)
  std::string algorithm;  // what actually ran ("hier:...", a flat name, "ompi:...")
  int root = -1;          // -1 for operations without a root
  double median_us = 0;
  double min_us = 0;
  double max_us = 0;
  int reps = 0;
};

// A field as CSV needs it: quoted (quotes doubled) when it holds a comma, a
// quote or a line break.
std::string csv_field(const std::string& s);
// A time in microseconds with three decimals ("nan" when missing).
std::string csv_number(double us);
// One line, without the line break.
std::string csv_line(const CsvRow& row);
// Header and rows, each ended by '\n'.
void write_csv(std::ostream& out, const std::vector<CsvRow>& rows);
// The fields of one line; quoted fields may hold commas and doubled quotes.
std::vector<std::string> split_csv_line(const std::string& line);
// A number field ("nan": NaN).
double parse_number(const std::string& s);
// The lines of a CSV file named `name` after its header, which must be
// `header`, each split into exactly `fields` fields; false, with the reason
// in *error, otherwise.
bool read_csv_fields(std::istream& in, const std::string& name, const char* header, size_t fields,
                     std::vector<std::vector<std::string>>* rows, std::string* error);
// Reads what write_csv wrote (quoted fields included); false, with the
// reason in *error, for another header or a malformed line.
bool read_csv(std::istream& in, std::vector<CsvRow>* rows, std::string* error);

}  // namespace hcbench
