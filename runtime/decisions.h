// The communicator's decisions (decide/decide.h), made once per operation,
// size class and commutativity and kept: in the communicator's state a
// slot per class, filled from a table of the process shared by every
// communicator of the same layout, mode and figures (duplicates decide
// once).  A decided call looks its slot up; it walks no rule.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "decide/decide.h"
#include "runtime/settings.h"
#include "select/tuning_file.h"

namespace hiercoll {

struct CommState;

// A decision as the runtime applies it: the same mechanism as a tuning
// file's range (runtime/run.cc tuned_for), with where it came from.
struct Decided {
  TunedRange range;
  Source source = Source::kModel;
  const Algorithm* algorithm = nullptr;  // range's flat algorithm, resolved once (null: not flat)
  // The cheapest of hiercoll's own where the chosen one is MPI's (else
  // the chosen again): what a nonblocking call runs, since the model costs
  // MPI's own as coll/tuned's blocking algorithms, while MPI's nonblocking
  // collectives are libnbc's (which also fails on a communicator freed
  // while its call is pending, as MPI allows).
  TunedRange own;
  const Algorithm* own_algorithm = nullptr;
  // The model's first kOnlineTries candidates of distinct costs (twins,
  // such as a composition and its forced leaders' algorithm that it
  // chooses anyway, once), the chosen first, with their flat algorithms:
  // what online refinement tries (runtime/online_tuning.h).
  std::vector<TunedRange> tries;
  std::vector<const Algorithm*> try_algorithms;
};

constexpr int kOnlineTries = 3;

// Slots of one communicator: [op][class * 2 + commutative].
struct DecisionSlots {
  std::string key;  // layout, mode and figures: the process table's key prefix
  std::array<std::vector<const Decided*>, kNumOps> slots;
  // A loop repeats its call: the last slot found, by op, class and
  // commutativity, is tried first.
  int last_key = -1;
  const Decided* last = nullptr;
};

// The decision for a call of op at `bytes` (select/tuning_file.h
// tuning_bytes) on the communicator, computed on first use.  Null for the
// operations the model does not decide: gatherv, scatterv and alltoallv
// (no rank knows every block: they choose by group size) and allgatherv
// (its blocks' skew matters more than their mean); the rules do.
const Decided* decided(CommState* state, const Settings& s, Op op, int64_t bytes, bool commutative);

// (Whether the model decides op: decide/decide.h model_decides.)

// The tuning file's range for a call of op at `bytes` where it decides
// (decide/decide.h file_range): looked up per call, since the file's
// ranges end anywhere, not at size classes.
const TunedRange* decided_file_range(const CommState* state, const Settings& s, Op op, int64_t bytes);

// Whether the file's method can run the call (its algorithm's
// restrictions, its composition's needs): one that cannot gives way to
// the model, as in decide/decide.h, where it is not among the candidates.
bool range_fits(const TunedRange& r, const CommState* state, const CollArgs& a);

// The figures the communicator decides from (decide/figures.h).
const Figures& comm_figures(const CommState* state);

}  // namespace hiercoll
