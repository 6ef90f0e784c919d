// What the benchmark's studies (--overlap, --persistent) share: hier and
// native on communicators of their own, an operation's distinct sizes, a
// results.csv row of a summary.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench/log.h"
#include "measure/csv.h"
#include "measure/impls.h"
#include "measure/ops.h"
#include "measure/stats.h"

namespace hcbench {

// Collective over ctrl: hier's and native's communicators, in that order;
// false (said on the log) when they cannot be made.
bool make_hier_and_native(MPI_Comm ctrl, std::vector<Impl>* impls, Log& log);

// The sizes in the operation's effective bytes (measure/calls.h), each once, ascending.
std::vector<int64_t> distinct_sizes(const OpInfo& op, const std::vector<int64_t>& sizes);

// A row of times (no layout, no algorithm: the caller adds them where known).
CsvRow summary_row(const std::string& op, int64_t bytes, const std::string& impl, const Summary& s);

}  // namespace hcbench
