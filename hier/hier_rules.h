// The built-in rules of the compositions: which composition a call gets
// where nothing else decides (selected_composition, hier/hier_registry.h)
// and which flat algorithm each phase of a composition runs.
#pragma once

#include <cstdint>
#include <string>

#include "algorithms/registry.h"

namespace hiercoll {

// The phase rules' algorithm for a phase of a segmented composition (its
// pipelines): `sub` the phase's call on its group, among the node leaders
// (`inter`) or inside a node, `bytes` the phase's vector.  Null for the
// other compositions and where no rule fits: the model
// (HierChoice::phases), else the flat default for the phase's group, then
// decides.
const Algorithm* phase_rule_algorithm(bool segmented, bool inter, const CollArgs& sub, int64_t bytes);

// "" when every rule names a registered composition and algorithm, else
// the first that does not.
std::string check_rule_tables();

}  // namespace hiercoll
