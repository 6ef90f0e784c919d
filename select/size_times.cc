#include "select/size_times.h"

#include <stdexcept>

#include "select/log_interpolation.h"

namespace hiercoll {
namespace {

TimeTable measured_table(const PointResult& r) {
  TimeTable t;
  for (const Measured& m : r.per_method) t.push_back(MethodTime{m.method, m.median_us, m.segment});
  return t;
}

TimeTable interpolated_table(int64_t lo, const TimeTable& at_lo, int64_t hi,
                             const TimeTable& at_hi, int64_t bytes) {
  // Nearer in log scale: bytes^2 against lo * hi.
  const bool hi_nearer =
      static_cast<double>(bytes) * bytes > static_cast<double>(lo) * hi;
  TimeTable t;
  for (const MethodTime& a : at_lo) {
    const MethodTime* b = find_method(at_hi, a.method);
    if (!b) continue;
    int64_t segment = hi_nearer ? b->segment : a.segment;
    if (segment >= bytes) segment = a.segment;
    t.push_back(MethodTime{a.method, interpolate_log_log(lo, a.us, hi, b->us, bytes), segment});
  }
  return t.empty() ? at_lo : t;
}

}  // namespace

std::vector<TimeTable> time_tables(const std::vector<int64_t>& sizes,
                                   const std::vector<const PointResult*>& results) {
  const int n = static_cast<int>(sizes.size());
  if (n == 0 || !results.front() || !results.back()) {
    throw std::invalid_argument("time_tables: the first and last sizes must be measured");
  }
  std::vector<TimeTable> tables(n);
  int lo = 0;
  for (int i = 0; i < n; ++i) {
    if (!results[i]) continue;
    tables[i] = measured_table(*results[i]);
    for (int k = lo + 1; k < i; ++k) {
      tables[k] = interpolated_table(sizes[lo], tables[lo], sizes[i], tables[i], sizes[k]);
    }
    lo = i;
  }
  return tables;
}

const MethodTime* find_method(const TimeTable& table, const std::string& method) {
  for (const MethodTime& t : table) {
    if (t.method == method) return &t;
  }
  return nullptr;
}

const MethodTime& fastest(const TimeTable& table) {
  const MethodTime* best = &table.front();
  for (const MethodTime& t : table) {
    if (t.us < best->us) best = &t;
  }
  return *best;
}

}  // namespace hiercoll
