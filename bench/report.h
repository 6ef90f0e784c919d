// Readable tables and the CSV rows, made from the Results (rank 0 only).
#pragma once

#include <string>
#include <vector>

#include "measure/csv.h"
#include "measure/results.h"

namespace hcbench {

// "12.34", "123.4", "1234" (µs; "-" when missing).
std::string format_us(double us);
// "1.52x" ("-" when missing).
std::string format_ratio(double r);

// The table of one operation: size, the median µs of every implementation
// (for rooted operations: median over roots of the per-root medians), and
// the speedups of hier over native and over han (their time / hier's).
// Rooted operations get a second part: the worst root's median of every
// implementation, hier's speedup over native on the worst root, and the
// root spread (worst / best root) of every implementation.
std::string op_table(const Results& results, const std::string& op, bool rooted,
                     const std::vector<std::string>& impls);

// hier's median against the lower bound for bcast, reduce and allreduce.
std::string lower_bound_table(const Results& results, const Links& links, int nodes,
                              const std::vector<std::string>& ops);
// lower_bound.csv: op,bytes,nodes,ppn,bound_us,hier_median_us,ratio,busy_bound_us,busy_ratio
std::string lower_bound_csv(const Results& results, const Links& links, const LayoutInfo& layout,
                            const std::vector<std::string>& ops);

// One row per (op, bytes, impl, root), in measurement order of ops and
// sizes, impls in command-line order, roots ascending.
std::vector<CsvRow> csv_rows(const Results& results, const LayoutInfo& layout,
                             const std::vector<std::string>& ops, const std::vector<std::string>& impls);

}  // namespace hcbench
