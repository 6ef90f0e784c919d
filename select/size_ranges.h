// From the decisions at the grid sizes to size ranges that cover every
// size: neighbouring sizes with the same method and segment share a range;
// between sizes that differ, the boundary is where the two methods' times
// cross (log-log lines between the two sizes), or the geometric middle when
// the methods are the same (another segment) or one lacks a time at either
// size.
#pragma once

#include <vector>

#include "select/size_grid.h"
#include "select/size_times.h"

namespace hiercoll {

std::vector<SizeRange> make_ranges(const std::vector<SizeDecision>& decisions,
                                   const std::vector<TimeTable>& tables);

}  // namespace hiercoll
