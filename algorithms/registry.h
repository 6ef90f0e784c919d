// The registry: every flat algorithm as data (operation, name, what it
// requires of the call, and its schedule generator).  Selection, the
// `hiercoll algorithms` listing and the test matrix are driven from it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schedule/builder.h"
#include "schedule/coll_args.h"
#include "schedule/registry_table.h"

namespace hiercoll {

enum Restriction : uint32_t {
  kPow2Only = 1u << 0,         // group size must be a power of two
  kCommutativeOnly = 1u << 1,  // the operation must be commutative
  kRootZeroOnly = 1u << 2,     // root must be rank 0
  kConsecutiveRanks = 1u << 3, // each node's ranks must be consecutive (hierarchical)
  kEqualCounts = 1u << 4,      // reduce_scatter: all counts equal
  // Gatherv/scatterv: every rank needs every block's count, which MPI
  // gives to the root only; the runtime sends the root's counts to all
  // first (runtime/root_counts.cc, adopt_root_counts).  No fit condition:
  // ranks must choose alike before they know the counts.
  kAllCounts = 1u << 5,
};

using BuildFn = void (*)(const CollArgs&, ScheduleBuilder&);

struct Algorithm {
  Op op;
  const char* name;
  uint32_t restrictions;
  BuildFn build;
  bool segmented = false;  // the schedule depends on CollArgs::seg_units
  const char* file = "";   // the generator's file in algorithms/
};

// The list (algorithms/registry_list.cc), and its entries in its order.
const RegistryTable<Algorithm>& algorithm_table();
const std::vector<Algorithm>& all_algorithms();
const Algorithm* find_algorithm(Op op, std::string_view name);
std::vector<const Algorithm*> algorithms_for(Op op);
// Whether the call satisfies the algorithm's restrictions.
bool algorithm_fits(const Algorithm& a, const CollArgs& args);
// "pow2-only commutative-only ..." (empty when unrestricted).
std::string restriction_names(uint32_t restrictions);

// Builds the schedule of one rank.
Schedule build_schedule(const Algorithm& a, const CollArgs& args);

}  // namespace hiercoll
