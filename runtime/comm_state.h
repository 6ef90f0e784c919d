// What hiercoll keeps per communicator besides its topology: the settings
// after the communicator's info hints, and a cache of schedules (they do not
// depend on the data, so a repeated call reuses its schedule).
#pragma once

#include <mpi.h>

#include <map>
#include <memory>
#include <vector>

#include "algorithms/registry.h"
#include "arrival/arrival_order.h"
#include "executors/mpi_executor.h"
#include "hier/hier_compose.h"
#include "runtime/decisions.h"
#include "runtime/online_tuning.h"
#include "runtime/settings.h"
#include "select/tuning_file.h"
#include "topo/topology.h"

namespace hiercoll {

// A cache lookup: refers to the call's arguments, so that a hit copies
// nothing (the v-variants' arguments hold up to four count arrays).
struct ScheduleKeyRef {
  const void* algorithm;  // flat Algorithm or hierarchical composition
  const CollArgs& args;
  int variant = 0;        // arrival-order trees: 1 + the fill order
};

// The stored key: owns a copy of the arguments.
struct ScheduleKey {
  const void* algorithm;
  CollArgs args;
  int variant = 0;
  ScheduleKeyRef ref() const { return ScheduleKeyRef{algorithm, args, variant}; }
};

// <0, 0, >0 as a is ordered before, like or after b: one pass over the
// arguments (a map lookup compares each node once per direction).
int compare_keys(const ScheduleKeyRef& a, const ScheduleKeyRef& b);

struct ScheduleKeyLess {
  using is_transparent = void;  // lookups by ScheduleKeyRef
  bool operator()(const ScheduleKey& a, const ScheduleKey& b) const { return compare_keys(a.ref(), b.ref()) < 0; }
  bool operator()(const ScheduleKey& a, const ScheduleKeyRef& b) const { return compare_keys(a.ref(), b) < 0; }
  bool operator()(const ScheduleKeyRef& a, const ScheduleKey& b) const { return compare_keys(a, b.ref()) < 0; }
};

template <typename T>
class BuiltCache {
 public:
  BuiltCache() = default;
  BuiltCache(const BuiltCache&) = delete;  // last_ points into map_
  BuiltCache& operator=(const BuiltCache&) = delete;
  // The cached value for key, built by `build` on a miss (shared: a
  // nonblocking call keeps its schedule while the cache moves on).
  template <typename Build>
  const std::shared_ptr<T>& get(const ScheduleKeyRef& key, Build build) {
    // A loop repeats its call: the last entry found is tried first (one
    // comparison instead of one per level of the tree), inline in the
    // caller; the rest is out of line.
    if (last_ != map_.end() && compare_keys(last_->first.ref(), key) == 0) return last_->second;
    return find_or_build(key, build);
  }
  size_t size() const { return map_.size(); }
  static constexpr size_t kMaxEntries = 512;

 private:
  template <typename Build>
  [[gnu::noinline]] const std::shared_ptr<T>& find_or_build(const ScheduleKeyRef& key, Build build) {
    auto it = map_.find(key);
    if (it == map_.end()) {
      if (map_.size() >= kMaxEntries) {  // crude bound; workloads repeat few shapes
        map_.clear();
        last_ = map_.end();
      }
      it = map_.emplace(ScheduleKey{key.algorithm, key.args, key.variant}, std::make_shared<T>(build())).first;
    }
    last_ = it;
    return it->second;
  }

  using Map = std::map<ScheduleKey, std::shared_ptr<T>, ScheduleKeyLess>;
  Map map_;
  typename Map::iterator last_ = map_.end();
};
using ScheduleCache = BuiltCache<Schedule>;

struct CommState {
  Settings settings;
  bool settings_current = false;
  // A duplicate's starting point: its parent's settings (hints set with
  // MPI_Comm_set_info included), which its own info hints then override.
  std::unique_ptr<Settings> inherited;
  ScheduleCache schedules;
  BuiltCache<ArrivalTree> arrival_trees;  // HIERCOLL_DYNAMIC: every position's schedule
  // The communicator's topology once known (it lives in an attribute of its
  // own, freed with the communicator): saves a lookup per call.  With it,
  // what the compositions need to know of its layout.
  const Topology* topology = nullptr;
  LayoutFacts facts;
  // The tuning file's entry for this layout (null: built-in rules), found
  // again whenever the settings change (tuning_resolved reset there).
  const TuningEntry* tuning = nullptr;
  // The model's figures, resolved with the entry (runtime/tuning.h).
  const Figures* figures = nullptr;
  // What chooses a composition's open phases: the model under the figures
  // (decide/phase_choice.h), resolved with them.
  const PhaseChooser* phases = nullptr;
  bool tuning_resolved = false;
  // The model's decisions for the communicator (runtime/decisions.h),
  // dropped with the tuning entry when the settings change.
  std::unique_ptr<DecisionSlots> decisions;
  // HIERCOLL_ONLINE_TUNING: the classes' tries (runtime/online_tuning.h).
  std::unique_ptr<OnlineTrials> online;
  int profile_layout = -1;  // HIERCOLL_PROFILE: the layout's index in the recorder
  // Calls run by a schedule so far, blocking and nonblocking: every rank
  // issues them in the same order, so the count names a call alike on all
  // ranks and gives it its own message tags (executors/mpi_executor.h).
  uint32_t calls_scheduled = 0;
  int next_tag_base() { return call_tag_base(calls_scheduled++); }
};

// The state of an intracommunicator, created on first use.  Not collective.
CommState* comm_state(MPI_Comm comm);
// Fills state's topology and layout facts on the communicator's first
// call (collective then: every rank must call it in the same call).
int ensure_topology(CommState* state, MPI_Comm comm);
// The settings for comm (environment overridden by its info hints).
const Settings& comm_settings(MPI_Comm comm);
// The same for a state already looked up (one attribute lookup per call).
const Settings& comm_settings(CommState* state, MPI_Comm comm);
// Called by MPI_Comm_set_info: the hints in `info` override the current ones.
void apply_set_info(MPI_Comm comm, MPI_Info info);
// Called by MPI_Comm_dup_with_info: the hints in `info` replace the copied ones.
void apply_dup_info(MPI_Comm comm, MPI_Info info);

}  // namespace hiercoll
