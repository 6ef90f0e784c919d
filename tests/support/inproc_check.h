// Runs one algorithm for one scenario on all ranks in-process and compares
// every rank's receive buffer, byte for byte (gaps of non-contiguous types
// included), with a straightforward reference computed with the same MPI
// operation in rank order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "arrival/arrival_order.h"
#include "tests/support/data_cases.h"
#include "tests/support/vector_layout.h"

namespace hiercoll::testing {

struct Scenario {
  const Algorithm* algo = nullptr;  // null: the composed schedule below
  int p = 1;
  int root = 0;
  int64_t count = 0;  // elements: vector length, or per-rank block for block collectives
  const DataCase* data = nullptr;
  bool in_place = false;
  int64_t seg_units = 0;
  std::vector<int64_t> counts;  // reduce_scatter, v-variants: elements per rank (empty: a pattern)
  bool gaps = false;            // v-variants: blocks in reverse order with gaps (tests/support/vector_layout.h)
  // Gatherv/scatterv: non-roots get the root's counts as the runtime's
  // count exchange gives them (adopt_root_counts); set for composed
  // schedules that need them, implied by a flat algorithm's kAllCounts.
  bool all_counts = false;
  // A composed schedule instead of a registered algorithm (algo null):
  // `build` gives rank r's schedule from its CollArgs (scenario_args), for
  // operation `op`, called `name` in messages.
  Op op = Op::kBcast;
  std::string name;
  std::function<Schedule(const CollArgs&)> build;
  // Non-empty: run the algorithm in arrival order (arrival/arrival_order.h),
  // the ranks entering in this order (the root first), positions handed
  // out in `fill` order.
  std::vector<int> arrival;
  FillOrder fill = FillOrder::kDepthFirst;
  // With `arrival`, a composed schedule's arrival-order tree (rank r's
  // from its CollArgs; arrival/hier_arrival_tree.h), placing whole nodes by
  // `node_of` (every rank's node).
  std::function<ArrivalTree(const CollArgs&)> tree;
  std::vector<int> node_of;

  Op the_op() const { return algo ? algo->op : op; }
  bool needs_all_counts() const { return all_counts || (algo && (algo->restrictions & kAllCounts)); }
  std::string describe() const;
};

// "" when every rank's result is right, else what went wrong and where.
std::string check_inprocess(const Scenario& sc);

// Whether the algorithm applies to the scenario (restrictions, in-place
// support of the operation; a composed schedule: the latter only).
bool scenario_applies(const Scenario& sc);

// For barriers: every rank's last step must causally follow the start of
// every rank.  "" when so, else the first rank that can leave early.
std::string check_barrier_causality(const std::vector<Schedule>& scheds);

// Operations whose unit is one rank's block (CollArgs::count is 1).
bool is_block_op(Op op);

// The blocks of a v-variant scenario.
VectorLayout vector_layout(const Scenario& sc);

// The CollArgs the scenario runs with on `rank`.
CollArgs scenario_args(const Scenario& sc, int rank);

}  // namespace hiercoll::testing
