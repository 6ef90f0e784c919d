// A candidate of the decision: a method (select/method.h: a flat
// algorithm, a composition with its leaders' algorithm, or Open MPI's own)
// and its segment, and every rank's schedule of it for a call on a layout
// given as data, through the runtime's own functions (select/flat_choice.h
// decide_flat, hier/hier_registry.h choose_composition and build_composed).
#pragma once

#include <cstdint>
#include <string>

#include "decide/model_call.h"
#include "hier/hier_compose.h"
#include "select/machine.h"
#include "select/method.h"
#include "sim/compact_schedules.h"
#include "topo/topology.h"

namespace hiercoll {

// A candidate of the decision (the tuner's search has its own Candidate,
// a method with the segments it tries: select/search.h).
struct MethodChoice {
  Method method;
  int64_t segment_bytes = 0;  // 0: the default for the method and size
  bool operator==(const MethodChoice& o) const { return method == o.method && segment_bytes == o.segment_bytes; }
};

// "flat:binomial", "hier:bcast_pipelined inter=twotree seg=64K".
std::string candidate_text(const MethodChoice& c);

// The schedules a candidate runs for the call: every rank's, and the name
// the runtime reports (last_algorithm).  False (and *error) when the
// method does not fit the call or its schedules pass max_steps in all
// (stopped before they are all built).  `machine`: the figures default
// segments follow (null: built-in); `phases`: what chooses a composition's
// open phases (decide/phase_choice.h model_phases of the decision's
// figures, as the runtime's).
struct CandidateSchedules {
  CompactSchedules schedules;
  std::string algorithm;
  bool over_limit = false;  // false returned because of max_steps
};
bool candidate_schedules(const Layout& L, const LayoutFacts& F, const SimCall& call, const MethodChoice& c,
                         const MachineFigures* machine, const PhaseChooser* phases, int64_t max_steps,
                         CandidateSchedules* out, std::string* error);

}  // namespace hiercoll
