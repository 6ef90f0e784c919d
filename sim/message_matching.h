// Pairs every send of a call's schedules with the receive it meets:
// messages between two ranks match in listing order (Step::seq, the MPI
// tag), as in the executors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/compact_schedules.h"

namespace hiercoll {

// partner[g]: for a send, the global id of its receive; for a receive, of
// its send; -1 for copies and reductions.  False (and *error) when a
// message has no partner or the two sides' sizes differ.
bool match_messages(const CompactSchedules& s, std::vector<int32_t>* partner, std::string* error);

}  // namespace hiercoll
