// The schedules the runtime would run for one call, on a layout given as
// data: the same decisions (hierarchical composition or flat algorithm,
// segment size) through the same functions as runtime/run.cc and
// runtime/hier_run.cc (hier/hier_registry.h choose_composition and
// build_composed, select/flat_choice.h decide_flat), nothing re-described.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flat/coll_args.h"
#include "flat/schedule.h"
#include "hier/hier_compose.h"
#include "select/tuning_file.h"
#include "sim/compact_schedules.h"
#include "topo/topology.h"

namespace hiercoll {

// What the simulated runtime is told, as the benchmark's implementations
// tell it (bench/options.h ImplSpec): its mode and what is forced.
struct SimMethod {
  bool hier = true;              // mode hier (else flat)
  std::string algorithm;         // forced flat algorithm (flat:<name>)
  std::string composition;       // forced composition (hier:<name>)
  std::string inter;             // forced leaders' algorithm (hier:<name>)
  const TuningEntry* tuning = nullptr;  // the tuning file's entry for the layout (tuned)
};

// The method for a benchmark implementation name of op: "hier", "flat",
// "flat:<algorithm>", "hier:<composition or leaders' algorithm>", "tuned"
// (with the layout's entry of the tuning file, null: none).  False (and
// *error) when the name means nothing for op.
bool method_for_impl(const std::string& impl, Op op, const TuningEntry* tuning, SimMethod* m, std::string* error);

// One call as the benchmark makes it: op and bytes (bench's meaning per
// operation) laid out in schedule units, root, the layout.
struct SimCall {
  CollArgs args;           // rank set per rank; count, root, counts
  int64_t unit_bytes = 0;  // bytes of one unit
};
SimCall bench_call(Op op, int64_t bytes, int size, int root);

// What the call runs: every rank's schedule, the name the runtime reports
// (last_algorithm: "binomial", "hier:bcast inter=twotree"), and notes
// (a forced or tuned choice that does not fit, said as the runtime's
// verbose mode says it).  `native` in the tuning file cannot be simulated:
// false with *error saying so.
struct CallSchedules {
  CompactSchedules schedules;
  std::string algorithm;
  std::string note;
};
// More than max_steps steps in all: false, before building them all.
constexpr int64_t kDefaultMaxSteps = 150'000'000;  // about 9 GB of the engine's memory
bool call_schedules(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m,
                    CallSchedules* out, std::string* error, int64_t max_steps = kDefaultMaxSteps);

}  // namespace hiercoll
