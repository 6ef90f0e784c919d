// What a tuning run measures: the operations and sizes of the command
// line, or those a HIERCOLL_PROFILE run recorded for this layout, most
// frequent first (the paper's Sect. 4.1: tune what the application uses).
#pragma once

#include <string>
#include <vector>

#include "select/tuning_file.h"
#include "tune/options.h"
#include "tune/tuner.h"

namespace hctune {

bool make_plans(const TuneOptions& opt, const hiercoll::LayoutKey& layout, std::vector<OpPlan>* plans,
                std::string* error);

}  // namespace hctune
