// `hiercoll tune --model`: the tuning file's entry of a layout that was
// never run, from the model alone.  For every operation, each half-octave
// size class (decide/model_call.h) between the smallest and the largest
// size gets the model's decision (decide/decide.h decide_class, as the
// runtime decides without a file); neighbouring classes that decide alike
// share a range, the first range starts at 0 and the last has no limit.
// The entry carries its figures ("model"), so the runtime decides every
// other size and layout from them too.  For a site that measures on two
// nodes (bench, then simulate --calibrate --figures-out) and runs on 1024.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decide/figures.h"
#include "select/tuning_file.h"
#include "topo/topology.h"

namespace hctune {

struct ModelEntryRequest {
  const hiercoll::Layout* layout = nullptr;
  hiercoll::Figures figures;
  std::vector<hiercoll::Op> ops;
  int64_t min_bytes = 8;
  int64_t max_bytes = 4 << 20;
};

hiercoll::TuningEntry model_entry(const ModelEntryRequest& r);

}  // namespace hctune
