// The simulator's engine: runs the schedules of all ranks of one call (the
// very schedules the executors run, schedule/schedule.h) on a discrete-event
// clock under the cost model (sim/cost_model.h):
//  - a step starts when its predecessors are done; a message when both its
//    send and its receive are ready;
//  - single-port, full duplex: a rank sends one message and receives one
//    at a time (further ready messages wait, oldest first), and reduces
//    one range at a time beside them; copies cost nothing (the papers'
//    model has no term for them);
//  - a message inside a node costs alpha_shm + bytes * beta_shm; between
//    nodes alpha + bytes * beta, where the bytes go through the sending
//    node's link, shared fairly by that node's concurrent inter-node sends;
//  - reducing costs gamma per byte of input;
//  - with CostModel::cores, reductions and each message's handling at its
//    receiver also wait for one of the cores its ranks share.
// Ties are broken by the order events were made, so a run is deterministic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/compact_schedules.h"
#include "sim/cost_model.h"

namespace hiercoll {

// Time by kind of work, microseconds.
struct TimeShares {
  double inter_us = 0;   // messages between nodes (waiting for the shared link included)
  double intra_us = 0;   // messages inside a node
  double reduce_us = 0;  // local reductions
  double total() const { return inter_us + intra_us + reduce_us; }
};

struct SimResult {
  double time_us = 0;        // when the last rank finishes
  TimeShares critical;       // the critical path's time, by kind (sums to time_us)
  int64_t steps = 0;         // of all ranks' schedules
  int64_t messages = 0;
  int64_t inter_messages = 0;
  int64_t inter_bytes = 0;
  int64_t events = 0;        // the engine's events served (the simulator's speed is events per second)
};

// What the engine runs: every rank's schedule, the node of every rank, and
// the bytes of one schedule unit.
struct SimInput {
  const CompactSchedules* schedules = nullptr;
  const std::vector<int>* node_of = nullptr;
  int64_t unit_bytes = 1;
};

// False (and *error says why) when the schedules do not fit together: a
// receive without its send, sizes that differ, a deadlock.
bool simulate(const SimInput& in, const CostModel& model, SimResult* out, std::string* error);

}  // namespace hiercoll
