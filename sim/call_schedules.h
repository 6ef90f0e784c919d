// The schedules the runtime would run for one call, on a layout given as
// data: the same decision (decide/decide.h decide_class, which the
// runtime's runtime/decisions.h calls too) and the same schedules
// (decide/candidate.h), nothing re-described.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decide/decide.h"
#include "decide/model_call.h"
#include "hier/hier_compose.h"
#include "schedule/coll_args.h"
#include "schedule/schedule.h"
#include "select/tuning_file.h"
#include "sim/compact_schedules.h"
#include "topo/topology.h"

namespace hiercoll {

// What the simulated runtime is told, as the benchmark's implementations
// tell it (measure/impl_spec.h ImplSpec): its mode and what is forced.
struct SimMethod {
  bool hier = true;              // mode hier (else flat)
  std::string algorithm;         // forced flat algorithm (flat:<name>)
  std::string composition;       // forced composition (hier:<name>)
  std::string inter;             // forced leaders' algorithm (hier:<name>)
  const TuningEntry* tuning = nullptr;  // the tuning file's entry for the layout (tuned)
  // The figures the runtime decides from (null: decide/figures.h built-in
  // ones, or the tuning file's where it has an entry).
  const Figures* figures = nullptr;
};

// The method for a benchmark implementation name of op: "hier", "flat",
// "flat:<algorithm>", "hier:<composition or leaders' algorithm>", "tuned"
// (with the layout's entry of the tuning file, null: none).  False (and
// *error) when the name means nothing for op.
bool method_for_impl(const std::string& impl, Op op, const TuningEntry* tuning, SimMethod* m, std::string* error);

// The decision's inputs for a simulated runtime told m.
DecideInput decide_input(const Layout& L, const LayoutFacts& F, const SimMethod& m);

// What the call runs: every rank's schedule, the name the runtime reports
// (last_algorithm: "binomial", "hier:bcast inter=twotree"), notes (a
// forced or tuned choice that does not fit), and the decision's source.  `native` in the tuning file cannot be simulated:
// false with *error saying so.
struct CallSchedules {
  CompactSchedules schedules;
  std::string algorithm;
  std::string note;
  Source source = Source::kModel;
  bool over_limit = false;  // false returned: the schedules pass max_steps
};
// More than max_steps steps in all: false, before building them all.
constexpr int64_t kDefaultMaxSteps = 150'000'000;  // about 9 GB of the engine's memory
bool call_schedules(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m,
                    CallSchedules* out, std::string* error, int64_t max_steps = kDefaultMaxSteps);

// The two halves of call_schedules.  The decision depends on the call's
// operation, size class and commutativity, never on its root (decide_class
// costs the candidates at root 0), so the roots of one point share one
// decision: costing the candidates is most of a point's time.
Decision call_decision(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m);
bool decided_schedules(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m,
                       const Decision& d, CallSchedules* out, std::string* error,
                       int64_t max_steps = kDefaultMaxSteps);

}  // namespace hiercoll
