// The model-guided search (`./hiercoll tune --guided`): at each size the
// tuner measures only the methods the model of the machine ranks first
// (decide/decide.h, under the process's figures: HIERCOLL_FIGURES, as the
// runtime decides without a tuning file): those predicted within
// kGuidedRatio of the model's best, at most kGuidedMethods of them (Open
// MPI's own among them where the model ranks it there; methods predicted
// alike run the same schedules and count once), each at the segment sizes
// within one octave of the model's segment for it.  What that finds
// against measuring everything: docs/TUNING.md, "Guided by the model".
#pragma once

#include <cstdint>
#include <vector>

#include "decide/figures.h"
#include "schedule/coll_args.h"
#include "select/search.h"
#include "topo/topology.h"

namespace hctune {

constexpr double kGuidedRatio = 1.1;
constexpr int kGuidedMethods = 3;

// Of `all` (the tuner's candidates at `bytes`, as the benchmark counts
// them), the ones chosen as above, in the model's order, their segments
// narrowed (never to none).  All of them where the model ranks none of them.
std::vector<hiercoll::Candidate> model_guided(const std::vector<hiercoll::Candidate>& all, hiercoll::Op op,
                                              const hiercoll::Layout& layout, const hiercoll::Figures& figures,
                                              int64_t bytes);

}  // namespace hctune
