#include "runtime/comm_state.h"

#include <atomic>
#include <cstdint>
#include <cstring>

namespace hiercoll {

namespace {

template <typename T>
int order(const T& x, const T& y) {
  return x < y ? -1 : (y < x ? 1 : 0);
}

// Any total order will do: length first, then the bytes.
int order(const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
  if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
  return x.empty() ? 0 : std::memcmp(x.data(), y.data(), x.size() * sizeof(int64_t));
}

}  // namespace

int compare_keys(const ScheduleKeyRef& k, const ScheduleKeyRef& o) {
  const CollArgs& a = k.args;
  const CollArgs& b = o.args;
  // The v-variants' blocks are part of the key: an application repeats few
  // decompositions, and comparing O(p) counts is far cheaper than building.
  int r = 0;
  (void)((r = order(k.algorithm, o.algorithm)) || (r = order(k.variant, o.variant)) || (r = order(a.op, b.op)) ||
         (r = order(a.rank, b.rank)) || (r = order(a.size, b.size)) || (r = order(a.root, b.root)) ||
         (r = order(a.count, b.count)) || (r = order(a.seg_units, b.seg_units)) ||
         (r = order(a.commutative, b.commutative)) || (r = order(a.send_alias, b.send_alias)) ||
         (r = order(a.counts, b.counts)) || (r = order(a.displs, b.displs)) ||
         (r = order(a.send_counts, b.send_counts)) || (r = order(a.send_displs, b.send_displs)) ||
         (r = order(a.node_counts, b.node_counts)));
  return r;
}

namespace {

int g_keyval = MPI_KEYVAL_INVALID;

// Bumped whenever a state is deleted: a freed communicator's handle may
// come back for a new one, so a thread's remembered pair is trusted only
// while no state was deleted since (LastState).
std::atomic<uint64_t> g_deletions{0};

int delete_state(MPI_Comm, int, void* val, void*) {
  delete static_cast<CommState*>(val);
  g_deletions.fetch_add(1, std::memory_order_acq_rel);
  return MPI_SUCCESS;
}

// The thread's last communicator and its state: a loop calls on one
// communicator, and the attribute lookup costs about a tenth of a small
// call's own work (callgrind).
struct LastState {
  MPI_Comm comm = MPI_COMM_NULL;
  CommState* state = nullptr;
  uint64_t deletions = 0;
};

// Not inlined: see executors/mpi_executor.cc's thread_run.
__attribute__((noinline)) LastState& last_state() {
  thread_local LastState last;
  return last;
}

// A duplicate (MPI_Comm_dup, _idup, _dup_with_info) starts from its
// parent's settings: Open MPI's MPI_Comm_set_info keeps no key it does not
// know, so hints set that way live only in the parent's state.
int copy_state(MPI_Comm parent, int, void*, void*, void* out, int* flag) {
  CommState* to = new CommState;
  to->inherited = std::make_unique<Settings>(comm_settings(parent));
  *static_cast<CommState**>(out) = to;
  *flag = 1;
  return MPI_SUCCESS;
}

}  // namespace

CommState* comm_state(MPI_Comm comm) {
  LastState& last = last_state();
  const uint64_t deletions = g_deletions.load(std::memory_order_acquire);
  if (last.comm == comm && last.deletions == deletions && last.state) return last.state;
  // Created once, whichever thread comes first (MPI_THREAD_MULTIPLE).
  static const int keyval_rc = PMPI_Comm_create_keyval(copy_state, delete_state, &g_keyval, nullptr);
  (void)keyval_rc;
  void* val = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, g_keyval, &val, &found);
  CommState* s = static_cast<CommState*>(val);
  if (!found) {
    s = new CommState;
    PMPI_Comm_set_attr(comm, g_keyval, s);
  }
  last = LastState{comm, s, deletions};
  return s;
}

namespace {

// New settings: the tuning entry, the decisions and online refinement's
// tries made under the old ones go.
void forget_decisions(CommState* s) {
  s->tuning_resolved = false;
  s->decisions.reset();
  s->online.reset();
}

}  // namespace

const Settings& comm_settings(MPI_Comm comm) { return comm_settings(comm_state(comm), comm); }

const Settings& comm_settings(CommState* s, MPI_Comm comm) {
  if (!s->settings_current) {
    MPI_Info info = MPI_INFO_NULL;
    PMPI_Comm_get_info(comm, &info);
    s->settings = apply_info(s->inherited ? *s->inherited : env_settings(), info);
    if (info != MPI_INFO_NULL) PMPI_Info_free(&info);
    s->settings_current = true;
    forget_decisions(s);
  }
  return s->settings;
}

// Open MPI 4.1 keeps only the info keys it knows of in MPI_Comm_set_info,
// so the new hints are taken from the caller's info object itself.
void apply_set_info(MPI_Comm comm, MPI_Info info) {
  const Settings current = comm_settings(comm);
  CommState* s = comm_state(comm);
  s->settings = apply_info(current, info);
  forget_decisions(s);
}

// MPI_Comm_dup_with_info: the new info replaces the parent's hints.
void apply_dup_info(MPI_Comm comm, MPI_Info info) {
  CommState* s = comm_state(comm);
  s->settings = apply_info(env_settings(), info);
  s->settings_current = true;
  forget_decisions(s);
}

}  // namespace hiercoll

namespace hiercoll {

int ensure_topology(CommState* state, MPI_Comm comm) {
  if (state->topology) return MPI_SUCCESS;
  const Topology* t = nullptr;
  const int rc = get_topology(comm, &t);
  if (rc != MPI_SUCCESS) return rc;
  state->facts = layout_facts(*t->layout);
  state->topology = t;
  return MPI_SUCCESS;
}

}  // namespace hiercoll
