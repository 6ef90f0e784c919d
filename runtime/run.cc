// The path of a call through the library: validate, pick the path (MPI's
// own, flat, hierarchical), lay out the buffers as schedule units, select
// the algorithm and segment size, fetch or build the schedule, execute it
// (blocking) or start it (nonblocking, runtime/requests.h).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <new>
#include <vector>

#include "arrival/arrival_mpi.h"
#include "executors/buffers.h"
#include "hier/hier_registry.h"
#include "decide/phase_choice.h"
#include "runtime/call.h"
#include "runtime/call_stages.h"
#include "runtime/comm_state.h"
#include "runtime/plan.h"
#include "runtime/profile.h"
#include "runtime/requests.h"
#include "runtime/tuning.h"
#include "select/flat_choice.h"
#include "select/flat_rules.h"
#include "topo/topology.h"

namespace hiercoll {

namespace {

int type_size_of(MPI_Datatype t) {
  int size = 0;
  if (t != MPI_DATATYPE_NULL) PMPI_Type_size(t, &size);
  return size;
}

}  // namespace

// Whether the call moves no data at all (MPI lets such calls return at
// once).  Decided in bytes, which every rank agrees on: ranks may describe
// the same data with other counts of other datatypes (one element of a
// datatype of size zero against zero MPI_INTs).
bool moves_nothing(const Call& c, int rank, int size) {
  switch (c.op) {
    case Op::kBarrier: return false;
    case Op::kReduceScatter: {  // every rank passes the same counts and datatype
      if (type_size_of(c.recvtype) == 0) return true;
      if (!c.recvcounts) return c.recvcount == 0;
      for (int r = 0; r < size; ++r)
        if (c.recvcounts[r] != 0) return false;
      return true;
    }
    case Op::kAllgatherv: {
      if (type_size_of(c.recvtype) == 0) return true;
      for (int r = 0; r < size; ++r)
        if (c.recvcounts[r] != 0) return false;
      return true;
    }
    case Op::kGatherv: case Op::kScatterv: case Op::kAlltoallv: return false;  // only the root knows all blocks
    case Op::kGather:
      return rank == c.root ? int64_t(c.recvcount) * type_size_of(c.recvtype) == 0
                            : int64_t(c.sendcount) * type_size_of(c.sendtype) == 0;
    case Op::kScatter:
      return rank == c.root ? int64_t(c.sendcount) * type_size_of(c.sendtype) == 0
                            : int64_t(c.recvcount) * type_size_of(c.recvtype) == 0;
    default: return int64_t(c.recvcount) * type_size_of(c.recvtype) == 0;
  }
}

// Whether a one-unit call of this shape would take the hierarchical path:
// the selection rules pick a composition for it and no flat algorithm is
// forced.
bool hier_would_serve(const Call& c, CommState& state, const Settings& s, int rank, int size) {
  if (s.mode != Mode::kHier || !s.algorithm[static_cast<int>(c.op)].empty()) return false;
  const bool commutative = op_commutative(c.mpi_op);
  if (model_decides(c.op)) {
    // One element of the call's datatype.
    const int64_t bytes = std::max(1, type_size_of(c.recvtype));
    const Decided* d = decided(&state, s, c.op, bytes, commutative);
    if (d && d->source != Source::kRules) return d->range.method.kind == Method::kHier;
  }
  CollArgs a;
  a.op = c.op;
  a.rank = rank;
  a.size = size;
  a.root = c.root;
  a.count = 1;
  a.commutative = commutative;
  return selected_composition(*state.topology->layout, state.facts, a) != nullptr;
}

namespace {

// Plans that allocate (a packed bcast message, an in-place alltoall's copy of
// its input) can fail on some ranks only (MPI_ERR_NO_MEM): the others would
// wait for them forever.  For messages from kAgreeBytes on, where memory may
// well run out and one small allreduce costs little next to the data, every
// rank learns the worst outcome before anything is sent.  The size is one
// all ranks know (bcast: the message; alltoall: all blocks), so all take
// part in the agreement or none.
constexpr int64_t kAgreeBytes = int64_t(16) << 20;

bool plan_needs_agreement(const Call& c, int size) {
  const bool allocates = c.op == Op::kBcast || (c.op == Op::kAlltoall && c.sendbuf == MPI_IN_PLACE);
  if (!allocates) return false;  // (other calls' types may be null)
  int type_size = 0;
  PMPI_Type_size(c.recvtype, &type_size);
  const int64_t bytes = int64_t(c.recvcount) * type_size;
  return (c.op == Op::kBcast ? bytes : bytes * size) >= kAgreeBytes;
}

int make_plan_agreed(const Call& c, int rank, int size, MPI_Comm comm, Plan* plan) {
  int rc;
  try {
    rc = make_plan(c, rank, size, plan);
  } catch (const std::bad_alloc&) {
    rc = MPI_ERR_NO_MEM;
  }
  if (comm == MPI_COMM_NULL || !plan_needs_agreement(c, size)) return rc;
  int worst = rc;
  const int arc = PMPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, comm);
  return arc != MPI_SUCCESS ? arc : worst;
}

void say_fallback(const Settings& s, const Call& c, const char* forced, const char* used) {
  if (s.verbose)
    std::fprintf(stderr, "hiercoll: %s: algorithm %s does not fit this call; using %s\n", c.mpi_name, forced, used);
}

// The end of a blocking call run outside the schedule cache path: the
// plan's unpacking, the error handler, the statistics.
int finish_blocking(const Call& c, Plan& plan, int rc, Path path) {
  if (rc == MPI_SUCCESS) rc = finish_plan(plan);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  count_call(c.api, path);
  return MPI_SUCCESS;
}

}  // namespace

namespace {

// prepare_call's and schedule_call's bodies are inlined into
// run_call_internal: small calls are latency-bound, and calling out cost
// about 70 instructions a call (callgrind).
[[gnu::always_inline]] inline int prepare(const Call& c, CallPath* p) {
  bool inter = false;
  int rc = validate_comm(c, &inter);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  if (inter) return kToMpi;
  p->state = comm_state(c.comm);
  p->settings = &comm_settings(p->state, c.comm);
  if (!p->settings->error.empty()) {
    std::fprintf(stderr, "hiercoll: %s: %s\n", c.mpi_name, p->settings->error.c_str());
    return raise_error(c.comm, MPI_ERR_ARG);
  }
  if (p->settings->mode == Mode::kOff) return kToMpi;
  // The topology before the other arguments: it is collective on a
  // communicator's first call, so a rank that refuses its arguments (an
  // error only the root can see) must not leave the others waiting in it.
  rc = ensure_topology(p->state, c.comm);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  p->topo = p->state->topology;
  rc = validate_args(c);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  PMPI_Comm_rank(c.comm, &p->rank);
  PMPI_Comm_size(c.comm, &p->size);
  return kGoOn;
}

}  // namespace

int prepare_call(const Call& c, CallPath* p) { return prepare(c, p); }

namespace {

Scheduled ended(int rc) {
  Scheduled s;
  s.rc = rc;
  return s;
}

// The flat algorithm's schedule, from the communicator's cache; or the
// call run in arrival order.
// `arrival_possible`: a blocking call with no nonblocking one outstanding.
[[gnu::always_inline]] inline Scheduled flat_schedule(const Call& c, Plan& plan, const CallPath& p, const Tuned& tuned,
                                                     bool blocking, bool arrival_possible, int tag_base) {
  FlatPick pick = pick_flat(c, plan, *p.settings, tuned, p.state->facts.links, blocking);
  if (arrival_possible && wants_arrival_order(pick, *p.settings, tuned))
    return ended(finish_blocking(
        c, plan, run_flat_arrival(c, plan, pick, *p.settings, p.state, p.topo->comm, tag_base), Path::kFlat));
  if (pick.algorithm->restrictions & kAllCounts) {
    const int rc = share_root_counts(*p.topo, p.state, &pick.args, &plan.bufs, plan.unit_bytes);
    if (rc != MPI_SUCCESS) return ended(raise_error(c.comm, rc));
  }
  note_algorithm(pick.algorithm->name);
  Scheduled s;
  s.schedule = &p.state->schedules.get(ScheduleKeyRef{pick.algorithm, pick.args},
                                       [&] { return build_schedule(*pick.algorithm, pick.args); });
  return s;
}

// Hierarchical compositions come first when enabled and useful.  With
// arrival-order trees asked for, a rooted blocking call that can take them
// runs them, hierarchically (the compositions' phases have fixed trees).
// Not for nonblocking calls, nor while any is outstanding: the trees'
// protocol blocks until the root answers, and nothing would advance the
// outstanding calls meanwhile.
[[gnu::always_inline]] inline Scheduled schedule(const Call& c, Plan& plan, const CallPath& p, const Tuned& tuned,
                                                bool blocking, int tag_base) {
  const Settings& settings = *p.settings;
  const Method::Kind tuned_kind = tuned.range ? tuned.range->method.kind : Method::kHier;
  const bool arrival_possible = blocking && !requests_active();
  const bool arrival_order = arrival_possible && settings.dynamic && arrival_order_applies(plan.args);
  const int o = static_cast<int>(c.op);
  const bool forcing_hier = !settings.composition[o].empty() || !settings.inter_algorithm[o].empty();
  // Arrival order (asked for by the knob) is no candidate of the model:
  // it takes the hierarchical trees unless the file chose otherwise.
  const bool arrival_hier = arrival_order && (tuned.from_model || !tuned.range);
  if (settings.mode == Mode::kHier && (tuned_kind == Method::kHier || forcing_hier || arrival_hier)) {
    int rc = MPI_SUCCESS;
    if (arrival_order) {
      rc = run_hier_arrival(c, plan, *p.topo, settings, p.state, tuned, tag_base);
      if (rc != -1) return ended(finish_blocking(c, plan, rc, Path::kHier));
    } else {
      Scheduled s;
      s.schedule = choose_hierarchical(c, plan, *p.topo, settings, p.state, tuned, blocking, &rc);
      if (rc != MPI_SUCCESS) return ended(raise_error(c.comm, rc));
      s.path = Path::kHier;
      if (s.schedule) return s;
    }
  }
  return flat_schedule(c, plan, p, tuned, blocking, arrival_possible, tag_base);
}

// Runs a blocking call's schedule to the end, or starts a nonblocking one.
int execute(const Call& c, Plan& plan, const CallPath& p, const Scheduled& s, std::unique_ptr<PendingCall> pending,
            int tag_base, MPI_Request* request) {
  if (!request)
    return finish_blocking(c, plan, run_blocking(**s.schedule, plan.bufs, c.mpi_op, p.topo->comm, tag_base), s.path);
  pending->schedule = *s.schedule;
  const int rc = start_request(std::move(pending), c, p.topo->comm, tag_base, request);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  count_call(c.api, s.path);
  return MPI_SUCCESS;
}

}  // namespace


Scheduled schedule_call(const Call& c, Plan& plan, const CallPath& p, const Tuned& tuned, bool blocking,
                        int tag_base) {
  return schedule(c, plan, p, tuned, blocking, tag_base);
}

// prepare, plan, decide, schedule, execute.
int run_call_internal(const Call& c, MPI_Request* request) {
  CallPath p;
  int rc = prepare(c, &p);
  if (rc != kGoOn) return rc;
  if (moves_nothing(c, p.rank, p.size)) {
    // Counted where a small call with data would go.
    note_algorithm("none");
    count_call(c.api, hier_would_serve(c, *p.state, *p.settings, p.rank, p.size) ? Path::kHier : Path::kFlat);
    return request ? completed_request(request) : MPI_SUCCESS;
  }
  // The buffers and arguments in schedule units: on the stack for a
  // blocking call, in the request for a nonblocking one (it lives until
  // the schedule has finished).
  std::unique_ptr<PendingCall> pending;
  Plan local_plan;
  Plan& plan = request ? (pending = std::make_unique<PendingCall>())->plan : local_plan;
  const LentArrays lent(request ? nullptr : &plan.args, c, p.rank);
  // Nonblocking calls do not agree on the plan (that would block them).
  rc = make_plan_agreed(c, p.rank, p.size, request ? MPI_COMM_NULL : p.topo->comm, &plan);
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  if (profiling()) profile_call(p.state, c.api, tuning_bytes(plan.args.op, plan.unit_bytes, plan.args));
  // The decision: the tuning file's method where it has one, else the
  // model's (runtime/decisions.h); MPI's own collective goes to MPI.
  const Tuned tuned = tuned_for(plan, *p.settings, p.state, /*blocking=*/!request, /*may_try=*/!request);
  if (tuned.range && tuned.range->method.kind == Method::kNative) return kToMpi;
  const int tag_base = p.state->next_tag_base();
  const Scheduled s = schedule(c, plan, p, tuned, /*blocking=*/!request, tag_base);
  if (s.rc != kGoOn) return s.rc;
  return execute(c, plan, p, s, std::move(pending), tag_base, request);
}

namespace {

// Whether a knob forces a method of ours that can run the call: MPI's own,
// chosen by the model or named by the file, then gives way to it (a knob
// before a file before the model, as in decide/decide.h).
bool knob_runs_ours(const Settings& s, const CommState* state, const CollArgs& a) {
  const int o = static_cast<int>(a.op);
  if (!s.algorithm[o].empty()) {
    const Algorithm* alg = find_algorithm(a.op, s.algorithm[o]);
    return alg && algorithm_fits(*alg, a);
  }
  if (s.mode != Mode::kHier || !state->facts.hierarchical()) return false;
  if (!s.composition[o].empty()) {
    const HierComposition* c = find_composition(a.op, s.composition[o]);
    return c && composition_applies(*c, *state->topology->layout, state->facts, a);
  }
  return !s.inter_algorithm[o].empty();
}

bool is_native(const TunedRange* r) { return r && r->method.kind == Method::kNative; }

}  // namespace

Tuned tuned_for(const Plan& plan, const Settings& s, CommState* state, bool blocking, bool may_try) {
  if (!state->tuning_resolved) {
    state->tuning = tuning_entry(s.tuning_file, *state->topology->layout, s.verbose, state->topology->rank == 0,
                                 &state->figures);
    state->phases = model_phases(comm_figures(state));
    state->tuning_resolved = true;
  }
  Tuned t;
  t.phases = state->phases;
  if (state->tuning) t.machine = &state->tuning->machine;
  const Op op = plan.args.op;
  const int o = static_cast<int>(op);
  const int64_t bytes = tuning_bytes(op, plan.unit_bytes, plan.args);
  // The decision (runtime/decisions.h: the model, or the file where it
  // measured), kept per size class.  A knob forces past it (pick_flat,
  // choose_hierarchical; MPI's own gives way to a knob that fits), and
  // what it forces but does not fit gives way to it.  Where the model does not decide: the file's range unless a knob
  // forces, else the rules.
  const bool forcing = !s.algorithm[o].empty() || !s.composition[o].empty() || !s.inter_algorithm[o].empty();
  if (state->tuning) {
    if (!forcing || model_decides(op)) t.range = decided_file_range(state, s, op, bytes);
    if (is_native(t.range) && (!blocking || (forcing && knob_runs_ours(s, state, plan.args)))) t.range = nullptr;
    if (t.range && (!model_decides(op) || range_fits(*t.range, state, plan.args))) return t;
    t.range = nullptr;
  }
  if (const Decided* d = decided(state, s, op, bytes, plan.args.commutative))
    if (d->source != Source::kRules && !(is_native(&d->range) && knob_runs_ours(s, state, plan.args))) {
      const bool own = !blocking && is_native(&d->range);
      t.range = own ? &d->own : &d->range;
      t.from_model = true;
      t.algorithm = own ? d->own_algorithm : d->algorithm;
      if (may_try && s.online_tuning && !forcing && d->source == Source::kModel)
        t.range = online_range(state, s, *d, &t.algorithm);
    }
  return t;
}

void say_segment_raised(const Settings& s, const Call& c, int64_t asked, int64_t used) {
  if (s.verbose)
    std::fprintf(stderr,
                 "hiercoll: %s: segment of %lld bytes raised to %lld bytes (segments of at least %lld bytes, or at "
                 "most %lld smaller ones; at most %lld segments)\n",
                 c.mpi_name, static_cast<long long>(asked), static_cast<long long>(used),
                 static_cast<long long>(kMinSegmentBytes), static_cast<long long>(kMaxSmallSegments),
                 static_cast<long long>(kMaxSegments));
}

FlatPick pick_flat(const Call& c, Plan& plan, const Settings& s, const Tuned& t, const LinkSharing& links,
                   bool blocking) {
  FlatPick pick{nullptr, plan.args};
  CollArgs& args = pick.args;
  FlatRequest req;
  req.forced = s.algorithm[static_cast<int>(args.op)];
  if (t.range && t.range->method.kind == Method::kFlat) {
    req.tuned = t.range->method.name;
    req.tuned_algorithm = t.algorithm;
    req.tuned_segment = t.range->segment_bytes;
  }
  req.segment_bytes = s.segment_bytes;
  req.machine = t.machine;
  req.links = links;
  req.no_count_exchange = !blocking;
  const FlatDecision d = decide_flat(args, plan.unit_bytes, req);
  if (d.unfit_forced) count_fallback(c.api);
  // A tuned algorithm that does not fit this call (e.g. a commutative-only
  // one for a non-commutative operation) is no fallback of the user's.
  if (d.unfit_forced || d.unfit_tuned) say_fallback(s, c, d.unfit_forced ? d.unfit_forced : d.unfit_tuned, d.algorithm->name);
  if (d.raised_segment_from) say_segment_raised(s, c, d.raised_segment_from, d.seg_units * plan.unit_bytes);
  pick.algorithm = d.algorithm;
  args.seg_units = d.seg_units;
  return pick;
}

// Arrival order: asked for by the knob, or the tuning file's method.
bool wants_arrival_order(const FlatPick& pick, const Settings& s, const Tuned& t) {
  const Method* tm = t.range ? &t.range->method : nullptr;
  const bool tuned_dynamic = tm && tm->kind == Method::kFlat && tm->dynamic && tm->name == pick.algorithm->name;
  return (s.dynamic || tuned_dynamic) && arrival_order_applies(pick.args);
}

int run_flat_arrival(const Call& c, const Plan& plan, const FlatPick& pick, const Settings& s, CommState* state,
                     MPI_Comm comm, int tag_base) {
  CollArgs args = pick.args;
  const FillOrder fill = s.dynamic ? s.dynamic_fill : FillOrder::kDepthFirst;
  auto tree_of = [&](const Algorithm* alg) -> const ArrivalTree& {
    const ScheduleKeyRef key{alg, args, 1 + static_cast<int>(fill)};
    return *state->arrival_trees.get(key, [&] { return build_arrival_tree(*alg, args, fill); });
  };
  const Algorithm* a = pick.algorithm;
  const ArrivalTree* tree = &tree_of(a);
  // Arrival order helps trees only: the binomial tree instead of an
  // algorithm where everyone talks to everyone.
  if (!tree->is_tree()) {
    a = find_algorithm(args.op, "binomial");
    args.seg_units = 0;
    tree = &tree_of(a);
  }
  note_algorithm(a->name);
  note_arrival_order();
  return execute_arrival_order(*tree, plan.bufs, c.mpi_op, comm, tag_base, args.rank, args.root);
}

}  // namespace hiercoll
