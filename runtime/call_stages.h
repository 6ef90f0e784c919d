// The stages of a call that the blocking and nonblocking path
// (run_call_internal, runtime/run.cc) and the persistent init
// (runtime/persistent.cc) share: prepare (communicator, state, settings,
// topology, arguments), and the schedule of the decided method.
#pragma once

#include <memory>

#include "runtime/call.h"
#include "runtime/comm_state.h"
#include "runtime/plan.h"
#include "runtime/settings.h"
#include "runtime/stats.h"
#include "topo/topology.h"

namespace hiercoll {

// What the stages share once the communicator is known.
struct CallPath {
  CommState* state = nullptr;
  const Settings* settings = nullptr;  // set from the settings on (null before)
  const Topology* topo = nullptr;
  int rank = 0, size = 0;
};

constexpr int kToMpi = -1;  // "MPI's own collective" (run_call_internal's -1)
constexpr int kGoOn = -2;   // a stage's "the call goes on"

// The communicator, its state and settings, its topology, the arguments:
// kGoOn, kToMpi (an intercommunicator, mode off), or the MPI code already
// raised through the communicator's error handler.
int prepare_call(const Call& c, CallPath* p);

// A call's schedule and its path, or its result (rc != kGoOn) where it ran
// another way (arrival order, blocking calls only) or failed.
struct Scheduled {
  const std::shared_ptr<Schedule>* schedule = nullptr;
  Path path = Path::kFlat;
  int rc = kGoOn;
};

// The decided (or forced) composition where it applies, else the flat
// algorithm, from the communicator's cache.  `tag_base`: arrival order's
// run (blocking calls only).
Scheduled schedule_call(const Call& c, Plan& plan, const CallPath& p, const Tuned& tuned, bool blocking, int tag_base);

}  // namespace hiercoll
