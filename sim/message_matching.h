// Pairs every send of a set of schedules with the receive it meets: messages
// between two ranks match in listing order (Step::seq, the MPI tag), as in
// the executors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flat/schedule.h"

namespace hiercoll {

// Steps of all ranks numbered one after the other: rank r's step i is
// first_step[r] + i; first_step has one entry more than there are ranks.
std::vector<int64_t> number_steps(const std::vector<Schedule>& scheds);

// partner[g]: for a send, the global id of its receive; for a receive, of
// its send; -1 for copies and reductions.  False (and *error) when a
// message has no partner or the two sides' sizes differ.
bool match_messages(const std::vector<Schedule>& scheds, const std::vector<int64_t>& first_step,
                    std::vector<int64_t>* partner, std::string* error);

}  // namespace hiercoll
