// The flat path's decision for one call, as pure functions: which
// algorithm (forced, tuned, or the rules) and which segment size.  The
// runtime (runtime/run.cc) takes them with its knobs and tuning file; the
// simulator (sim/) with the same inputs from its command line.
#pragma once

#include <cstdint>
#include <string_view>

#include "algorithms/registry.h"
#include "schedule/coll_args.h"
#include "select/flat_rules.h"
#include "select/machine.h"

namespace hiercoll {

// What is asked of the flat path besides the rules ("" / 0: nothing).  The
// names are views of std::strings that outlive the call (settings, tuning
// file): taken on every call, they are not copied.
struct FlatRequest {
  std::string_view forced;     // a forced algorithm (knob HIERCOLL_<OP>_ALGORITHM)
  std::string_view tuned;      // the decided flat algorithm (model or tuning file)
  const Algorithm* tuned_algorithm = nullptr;  // ... resolved (null: found by name)
  int64_t tuned_segment = 0;   // ... and its segment in bytes (0: the default)
  int64_t segment_bytes = 0;   // a forced segment (knob HIERCOLL_SEGMENT_BYTES)
  const MachineFigures* machine = nullptr;  // figures the rules and default segments follow (null: built-in)
  LinkSharing links;                        // the group's, for the rules (select/flat_rules.h)
  // A nonblocking gatherv or scatterv: it cannot wait for the root's counts
  // to reach every rank, so algorithms that need them (kAllCounts) do not
  // fit, and the rules' pick of one becomes the linear form.
  bool no_count_exchange = false;
};

struct FlatDecision {
  const Algorithm* algorithm = nullptr;  // never null
  int64_t seg_units = 0;
  // The segment in bytes that was asked for (forced, tuned or default) where
  // the segment bounds raised it (0: not raised).
  int64_t raised_segment_from = 0;
  // The forced / tuned algorithm that was asked for but does not fit the
  // call (null when none was refused).
  const char* unfit_forced = nullptr;
  const char* unfit_tuned = nullptr;
};

// The forced algorithm if it fits, else the decided one (`tuned`: the
// model's or the tuning file's, decide/decide.h) if it fits, else the
// rules (default_algorithm); the segment: forced, then the decided one's
// for its own algorithm, then the default from the machine figures; then
// raised to the segment bounds (bounded_seg_units, select/flat_rules.h).
FlatDecision decide_flat(const CollArgs& args, int64_t unit_bytes, const FlatRequest& req);

}  // namespace hiercoll
