// `hiercoll explain`: the decision (decide/decide.h) for each operation and
// size on a layout given as data, every candidate with its predicted or
// measured time, the winner first, and where the decision came from
// (model, file, knob, rules).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "decide/decide.h"
#include "sim/options.h"

namespace hiercoll {

struct ExplainRow {
  std::string op;
  int64_t bytes = 0;
  Decision decision;
};

// Decisions for every operation and size of opt on layout L, from the
// figures (built-in unless given) and the tuning file's entry for L (may
// be null), as the runtime decides in mode hier, nothing forced.
std::vector<ExplainRow> explain(const SimOptions& opt, const Layout& L, const Figures& figures,
                                const TuningEntry* tuning);

void print_explain(std::ostream& out, const std::vector<ExplainRow>& rows);
// op,bytes,rank,method,predicted_us,source: rank 1 is the chosen one;
// predicted_us is empty where a candidate could not be costed.
void write_explain_csv(std::ostream& out, const std::vector<ExplainRow>& rows);

}  // namespace hiercoll
