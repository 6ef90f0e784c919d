// The one decision: for a call of an operation and size on a layout, every
// candidate (decide/candidates.h) gets a cost from the model of the
// machine (the simulator's engine running the candidate's very schedules
// under the figures, decide/figures.h); a tuning file's measurement for
// the layout replaces the model where the file has one (its method for the
// size's range, at its measured time: the tuner measured the others
// slower); a knob forces.  The cheapest wins; ties go to the earlier
// candidate.  Side-effect free and deterministic, so every rank decides
// alike without a message, and the runtime (runtime/decisions.h), the
// simulator, the tuner and `hiercoll explain` all call this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decide/candidates.h"
#include "decide/figures.h"
#include "select/tuning_file.h"

namespace hiercoll {

enum class Source { kModel, kFile, kKnob, kRules };
const char* source_name(Source s);  // "model", "file", "knob", "rules"

// What is forced for the operation (runtime/settings.h), by name; empty:
// nothing.
struct Forced {
  std::string algorithm;    // HIERCOLL_<OP>_ALGORITHM: a flat algorithm
  std::string composition;  // HIERCOLL_<OP>_COMPOSITION
  std::string inter;        // HIERCOLL_<OP>_INTER_ALGORITHM
  bool any() const { return !algorithm.empty() || !composition.empty() || !inter.empty(); }
};

struct DecideInput {
  const Layout* layout = nullptr;
  const LayoutFacts* facts = nullptr;
  const Figures* figures = nullptr;      // null: builtin_figures()
  const TuningEntry* tuning = nullptr;   // the file's entry for this very layout (null: none)
  CandidateScope scope;
  Forced forced;
  // Whether the file's ranges take part (the runtime looks them up per
  // call, file_range, and keeps the model's decisions per size class).
  bool file_ranges = true;
  // A candidate whose schedules on the whole layout have more steps in all
  // is costed from smaller layouts of the same kind, each within the limit
  // (decide/model_cost.h), so a decision's time is bounded at any scale:
  // a candidate's samples take about twice the limit's steps.  At this
  // limit the decisions of 64 x 16 match those of simulating every
  // candidate whole at 23 of 24 points (docs/SIMULATION.md, "Deciding at
  // scale"), at a seventh of the time.
  int64_t max_steps = int64_t{1} << 18;
  // False: where a knob forces a flat algorithm or a composition that fits
  // the call, and no tuning file takes part, only that method is costed
  // (what runs then does not depend on the others' costs; the simulator's
  // forced implementations need no ranking, and at scale each candidate
  // costs seconds).
  bool rank_all = true;
};

struct Costed {
  MethodChoice candidate;
  double us = 0;         // predicted (model) or measured (file); < 0: not costed
  Source source = Source::kModel;
  std::string note;      // why not costed, a derived cost's form, or what was forced and did not fit
  bool derived = false;  // the model's cost from smaller layouts (decide/model_cost.h)
};

// A cost as decide() orders them: to the nanosecond, so that costs equal
// but for the order of a sum (alike schedules) tie, and ties keep the
// candidates' order (the plain composition before its forced leaders'
// algorithms).
int64_t cost_ns(double us);

struct Decision {
  // The chosen one first, then the others by cost, the ones not costed last.
  std::vector<Costed> ranked;
  Source source = Source::kModel;
  std::string note;  // a forced method that does not fit, a file method unknown here
  const Costed& chosen() const { return ranked[0]; }
};

// The tuning file's range for op at `bytes` (select/tuning_file.h
// tuning_bytes) where it decides: the file has one and, in mode flat, it
// names a flat method.  Null otherwise.  (Whether its method fits the very
// call is the caller's to check: decide() finds it among the candidates,
// the runtime checks the call, runtime/decisions.h.)
const TunedRange* file_range(const DecideInput& in, Op op, int64_t bytes);

// The decision for `call` (its size as the benchmark counts it:
// select/tuning_file.h tuning_bytes; the file's range is looked up at
// file_bytes where given, >= 0).  Never empty: where no candidate
// could be costed the built-in rules choose
// (source kRules, rules_candidate).
Decision decide(const DecideInput& in, const SimCall& call, int64_t file_bytes = -1);

// Whether the model decides op: not gatherv, scatterv and alltoallv (no
// rank knows every block, so every rank must choose by what all know: the
// group's size) nor allgatherv (its blocks' skew matters more than their
// mean); the tuning file and the rules decide those.
bool model_decides(Op op);
// The built-in rules' method for the call (select/flat_rules.h
// default_algorithm, hier/hier_registry.h selected_composition): what runs
// where the model cannot cost anything, or where the decided method does
// not fit a call of the class (its datatype, in place).
MethodChoice rules_candidate(const Layout& L, const LayoutFacts& F, const SimCall& call, const CandidateScope& scope);

// The decision for op at `bytes` (bench's meaning) on the layout, as the
// runtime makes it: the file's range at `bytes`, else the model's costs at
// the size class's smallest size (decide/model_call.h) with root 0 (costs
// do not depend on the root; the compositions are root independent) and
// the given commutativity.
Decision decide_class(const DecideInput& in, Op op, int64_t bytes, bool commutative);

}  // namespace hiercoll
