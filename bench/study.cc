#include "bench/study.h"

#include <algorithm>

#include "measure/calls.h"

namespace hcbench {

bool make_hier_and_native(MPI_Comm ctrl, std::vector<Impl>* impls, Log& log) {
  ImplSpec hier, native;
  std::string error;
  parse_impl("hier", &hier, &error);
  parse_impl("native", &native, &error);
  if (create_impls({hier, native}, ctrl, impls, &error)) return true;
  log.say("hiercoll_bench: %s", error.c_str());
  return false;
}

std::vector<int64_t> distinct_sizes(const OpInfo& op, const std::vector<int64_t>& sizes) {
  std::vector<int64_t> out;
  for (int64_t s : sizes) out.push_back(effective_bytes(op, s));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

CsvRow summary_row(const std::string& op, int64_t bytes, const std::string& impl, const Summary& s) {
  CsvRow r;
  r.op = op;
  r.bytes = bytes;
  r.impl = impl;
  r.median_us = s.median;
  r.min_us = s.min;
  r.max_us = s.max;
  r.reps = s.n;
  return r;
}

}  // namespace hcbench
