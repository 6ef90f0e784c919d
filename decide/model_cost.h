// The model's time of one candidate: the simulator's engine running every
// rank's schedule of it under the machine's figures.  Where the schedules
// on the whole layout pass the step limit, the time is a form derived from
// the model: the candidate simulated on smaller layouts of the same kind
// (2, 4, 8, ... of its nodes, decide/scaled_layout.h) and its growth with
// the nodes carried to the whole layout (decide/growth_fit.h).
#pragma once

#include <cstdint>
#include <string>

#include "decide/candidate.h"
#include "decide/figures.h"
#include "decide/scaled_layout.h"

namespace hiercoll {

struct ModelCost {
  double us = -1;        // < 0: not costed (why in note)
  std::string note;      // why not costed, or the derived form and its samples
  bool derived = false;  // from smaller layouts
};

// A rooted call given at root 0 (bcast, reduce, gather, scatter and their
// v-variants) is costed at its first and its last rank, averaged, since
// the decision serves every root.  `smaller`: L's smaller layouts, shared
// by the candidates of a decision (null: built for this candidate alone).
ModelCost model_cost(const Layout& L, const LayoutFacts& F, const SimCall& call, const MethodChoice& c,
                     const MachineFigures* machine, const Figures& fig, int64_t max_steps,
                     SmallerLayouts* smaller = nullptr);

// The derived form alone, for a caller that knows the whole layout passes
// the limit.
ModelCost derived_model_cost(SmallerLayouts* smaller, const SimCall& call, const MethodChoice& c,
                             const MachineFigures* machine, const Figures& fig, int64_t max_steps);

}  // namespace hiercoll
