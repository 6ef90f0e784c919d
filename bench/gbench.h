// Google Benchmark as the reporting harness: every measured series becomes
// a benchmark whose iterations replay the measured per-call times as manual
// time (so Google Benchmark's own real_time is the mean of exactly those
// calls), with our statistics as counters (median_us, min_us, max_us, reps,
// root ...) and the algorithm that ran as the label. Names:
//   <op>/<bytes>/<impl>/root:<r>   one root of a rooted operation
//   <op>/<bytes>/<impl>            unrooted, or all roots together (counters
//                                  median_us = median over roots, best_root_us,
//                                  worst_root_us, root_spread)
// Rank 0 only; writes Google Benchmark's JSON (context included) to `path`.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "measure/results.h"

namespace hcbench {

// context: extra key/value pairs for the JSON's "context" object.
bool write_gbench_json(const Results& results, const std::vector<std::string>& ops,
                       const std::vector<std::string>& impls, const std::vector<std::pair<std::string, std::string>>& context,
                       const std::string& path);

}  // namespace hcbench
