// Every method that can run a call: each flat algorithm that fits (those
// whose schedule depends on the segment at their default segment, a
// quarter of it and four times it), and, where the layout has levels and
// the mode allows, each composition that applies, with the phase rules'
// leaders' algorithm and with every leaders' algorithm that fits.  In the
// registries' order, which breaks ties.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/registry.h"
#include "decide/candidate.h"

namespace hiercoll {

struct CandidateScope {
  bool hier = true;                // mode hier (else flat algorithms only)
  bool no_count_exchange = false;  // a nonblocking gatherv/scatterv (select/flat_choice.h)
  int64_t forced_segment = 0;      // HIERCOLL_SEGMENT_BYTES: the only segment tried
  const MachineFigures* machine = nullptr;  // default segments' figures (null: built-in)
};

// The segment the runtime gives a segmented flat algorithm for the call by
// default (select/flat_rules.h), in bytes.
int64_t default_segment_of(const Algorithm& a, const SimCall& call, const MachineFigures* machine);

std::vector<MethodChoice> candidates_for(const Layout& L, const LayoutFacts& F, const SimCall& call,
                                      const CandidateScope& scope);

// The next segment of a segmented candidate c: half its segment (down) or
// twice it, as the runtime's bounds raise it
// (select/flat_rules.h bounded_seg_units), into *next (0 where that is the
// default), where that makes another schedule (up to one segment of the
// whole message).  False
// where there is none, c is not segmented or a knob forces the segment.
bool segment_step(const Layout& L, const SimCall& call, const CandidateScope& scope, const MethodChoice& c, bool down,
                  MethodChoice* next);

}  // namespace hiercoll
