// The path of a call through the library: validate, pick the path (MPI's
// own, flat, hierarchical), lay out the buffers as schedule units, select
// the algorithm and segment size, fetch or build the schedule, execute it
// (blocking) or start it (nonblocking, runtime/requests.h).
#include <cstdio>
#include <memory>
#include <vector>

#include "flat/buffers.h"
#include "select/flat_choice.h"
#include "select/flat_rules.h"
#include "runtime/call.h"
#include "runtime/comm_state.h"
#include "hier/hier_registry.h"
#include "runtime/plan.h"
#include "runtime/profile.h"
#include "runtime/requests.h"
#include "runtime/tuning.h"
#include "topo/topology.h"

namespace hiercoll {

namespace {

// Whether the call moves no data at all (MPI lets such calls return at once).
bool moves_nothing(const Call& c, int rank) {
  switch (c.op) {
    case Op::kBarrier: return false;
    case Op::kReduceScatter: return false;  // counts differ per rank: let the schedule decide
    case Op::kGather: return (rank == c.root ? c.recvcount : c.sendcount) == 0;
    case Op::kScatter: return (rank == c.root ? c.sendcount : c.recvcount) == 0;
    case Op::kBcast: {
      // In bytes: ranks may give different counts of different datatypes.
      int type_size = 0;
      PMPI_Type_size(c.recvtype, &type_size);
      return c.recvcount == 0 || type_size == 0;
    }
    default: return c.recvcount == 0;
  }
}

// Whether a one-unit call of this shape would take the hierarchical path:
// the selection rules pick a composition for it and no flat algorithm is
// forced.
bool hier_would_serve(const Call& c, const CommState& state, const Settings& s, int rank, int size) {
  if (s.mode != Mode::kHier || !s.algorithm[static_cast<int>(c.op)].empty()) return false;
  CollArgs a;
  a.op = c.op;
  a.rank = rank;
  a.size = size;
  a.root = c.root;
  a.count = 1;
  a.commutative = op_commutative(c.mpi_op);
  return selected_composition(*state.topology->layout, state.facts, a, /*unit_bytes=*/1) != nullptr;
}

void say_fallback(const Settings& s, const Call& c, const char* forced, const char* used) {
  if (s.verbose)
    std::fprintf(stderr, "hiercoll: %s: algorithm %s does not fit this call; using %s\n", c.mpi_name, forced, used);
}

}  // namespace

int run_call_internal(const Call& c, MPI_Request* request) {
  bool inter = false;
  int rc = validate_comm(c, &inter);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  if (inter) return -1;
  CommState* state = comm_state(c.comm);
  const Settings& settings = comm_settings(state, c.comm);
  if (!settings.error.empty()) {
    std::fprintf(stderr, "hiercoll: %s: %s\n", c.mpi_name, settings.error.c_str());
    return raise_error(c.comm, MPI_ERR_ARG);
  }
  if (settings.mode == Mode::kOff) return -1;

  // The topology before the other arguments: it is collective on a
  // communicator's first call, so a rank that refuses its arguments (an
  // error only the root can see) must not leave the others waiting in it.
  if (!state->topology) {
    const Topology* t = nullptr;
    rc = get_topology(c.comm, &t);
    if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
    state->facts = layout_facts(*t->layout);
    state->topology = t;
  }
  const Topology* topo = state->topology;
  rc = validate_args(c);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);

  int rank, size;
  PMPI_Comm_rank(c.comm, &rank);
  PMPI_Comm_size(c.comm, &size);
  if (moves_nothing(c, rank)) {
    // Counted where a small call with data would go.
    note_algorithm("none");
    count_call(c.api, hier_would_serve(c, *state, settings, rank, size) ? Path::kHier : Path::kFlat);
    return request ? completed_request(request) : MPI_SUCCESS;
  }

  // Lay out the buffers and the arguments in schedule units: on the stack
  // for a blocking call, in the request for a nonblocking one (it lives
  // until the schedule has finished).
  std::unique_ptr<PendingCall> pending;
  Plan local_plan;
  Plan& plan = request ? (pending = std::make_unique<PendingCall>())->plan : local_plan;
  rc = make_plan(c, rank, size, &plan);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);

  if (profiling()) profile_call(state, c.api, tuning_bytes(plan.args.op, plan.unit_bytes, plan.args));

  // The tuning file's method, where it has one for the call: MPI's own
  // collective, a flat algorithm, or a composition.
  const Tuned tuned = tuned_for(plan, settings, state);
  const Method::Kind tuned_kind = tuned.range ? tuned.range->method.kind : Method::kHier;
  if (tuned_kind == Method::kNative) return -1;

  // Hierarchical compositions come first when enabled and useful.
  const std::shared_ptr<Schedule>* sched = nullptr;
  if (settings.mode == Mode::kHier && tuned_kind == Method::kHier)
    sched = choose_hierarchical(c, plan, *topo, settings, state, tuned);
  const Path path = sched ? Path::kHier : Path::kFlat;
  if (!sched) sched = &choose_flat(c, plan, settings, state, tuned);
  const int tag_base = state->next_tag_base();

  if (request) {
    pending->schedule = *sched;
    rc = start_request(std::move(pending), c, topo->comm, tag_base, request);
  } else {
    rc = run_blocking(**sched, plan.bufs, c.mpi_op, topo->comm, tag_base);
    if (rc == MPI_SUCCESS) rc = finish_plan(plan);
  }
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  count_call(c.api, path);
  return MPI_SUCCESS;
}

Tuned tuned_for(const Plan& plan, const Settings& s, CommState* state) {
  if (!state->tuning_resolved) {
    state->tuning = tuning_entry(s.tuning_file, *state->topology->layout, s.verbose, state->topology->rank == 0);
    state->tuning_resolved = true;
  }
  Tuned t;
  if (!state->tuning) return t;
  t.machine = &state->tuning->machine;
  const int op = static_cast<int>(plan.args.op);
  if (!s.algorithm[op].empty() || !s.composition[op].empty() || !s.inter_algorithm[op].empty()) return t;
  t.range = find_range(*state->tuning, plan.args.op, tuning_bytes(plan.args.op, plan.unit_bytes, plan.args));
  // Mode flat runs flat algorithms only.
  if (t.range && s.mode == Mode::kFlat && t.range->method.kind != Method::kFlat) t.range = nullptr;
  return t;
}

const std::shared_ptr<Schedule>& choose_flat(const Call& c, Plan& plan, const Settings& s, CommState* state,
                                             const Tuned& t) {
  CollArgs args = plan.args;
  FlatRequest req;
  req.forced = s.algorithm[static_cast<int>(args.op)];
  if (t.range && t.range->method.kind == Method::kFlat) {
    req.tuned = t.range->method.name;
    req.tuned_segment = t.range->segment_bytes;
  }
  req.segment_bytes = s.segment_bytes;
  req.machine = t.machine;
  const FlatDecision d = decide_flat(args, plan.unit_bytes, req);
  if (d.unfit_forced) count_fallback(c.api);
  // A tuned algorithm that does not fit this call (e.g. a commutative-only
  // one for a non-commutative operation) is no fallback of the user's.
  if (d.unfit_forced || d.unfit_tuned) say_fallback(s, c, d.unfit_forced ? d.unfit_forced : d.unfit_tuned, d.algorithm->name);
  const Algorithm* a = d.algorithm;
  args.seg_units = d.seg_units;
  note_algorithm(a->name);
  return state->schedules.get(ScheduleKey{a, args}, [&] { return build_schedule(*a, args); });
}

}  // namespace hiercoll
