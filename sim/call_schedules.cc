#include "sim/call_schedules.h"

#include <algorithm>

#include "hier/hier_registry.h"
#include "select/flat_choice.h"

namespace hiercoll {

bool method_for_impl(const std::string& impl, Op op, const TuningEntry* tuning, SimMethod* m, std::string* error) {
  *m = SimMethod{};
  const size_t colon = impl.find(':');
  const std::string base = impl.substr(0, colon), name = colon == std::string::npos ? "" : impl.substr(colon + 1);
  if (impl == "hier" || impl == "flat") {
    m->hier = impl == "hier";
    return true;
  }
  if (impl == "tuned") {
    m->tuning = tuning;
    return true;
  }
  if (base == "flat" && !name.empty()) {
    if (!find_algorithm(op, name)) {
      *error = "no flat " + std::string(op_name(op)) + " algorithm named '" + name + "'";
      return false;
    }
    m->algorithm = name;
    return true;
  }
  if (base == "hier" && !name.empty()) {
    // As the benchmark maps hier:<name>: a composition of op, else an
    // algorithm of its compositions' inter-node phases.
    if (find_composition(op, name)) {
      m->composition = name;
      return true;
    }
    const std::vector<std::string> inter = inter_algorithm_names(op);
    if (std::find(inter.begin(), inter.end(), name) != inter.end()) {
      m->inter = name;
      return true;
    }
    *error = "no " + std::string(op_name(op)) + " composition or inter-node algorithm named '" + name + "'";
    return false;
  }
  if (impl == "native" || impl == "han" || impl == "mpi")
    *error = impl + " is Open MPI's own collective: no hiercoll schedule, nothing to simulate";
  else
    *error = "unknown implementation '" + impl + "' (hier, flat, flat:<algorithm>, hier:<name>, tuned)";
  return false;
}

SimCall bench_call(Op op, int64_t bytes, int size, int root) {
  SimCall c;
  CollArgs& a = c.args;
  a.op = op;
  a.size = size;
  a.root = root;
  switch (op) {
    case Op::kBarrier:
      a.count = 0;
      break;
    case Op::kBcast:  // units of bytes (runtime/plan_bcast.cc)
      a.count = std::max<int64_t>(1, bytes);
      c.unit_bytes = 1;
      break;
    case Op::kReduce:
    case Op::kAllreduce:
    case Op::kScan:
    case Op::kExscan:
    case Op::kReduceScatter:  // floats, as the benchmark reduces them
      a.count = std::max<int64_t>(1, bytes / 4);
      c.unit_bytes = 4;
      if (op == Op::kReduceScatter) a.counts.assign(size, a.count);
      break;
    case Op::kGatherv:
    case Op::kScatterv:
    case Op::kAllgatherv:
    case Op::kAlltoallv:  // the benchmark's uniform blocks of bytes (its --counts uniform)
      a.count = std::max<int64_t>(1, bytes);
      c.unit_bytes = 1;
      a.counts.assign(size, a.count);
      a.displs.resize(size);
      for (int r = 0; r < size; ++r) a.displs[r] = r * a.count;
      a.send_counts = a.counts;
      a.send_displs = a.displs;
      break;
    default:  // block collectives: a unit is one rank's block
      a.count = 1;
      c.unit_bytes = std::max<int64_t>(1, bytes);
      break;
  }
  return c;
}

namespace {

// The runtime's hierarchical path (runtime/hier_run.cc choose_hierarchical):
// null when the call goes flat.
const HierChoice* hier_choice(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m,
                              const TunedRange* range, std::string* note) {
  const bool forcing = !m.composition.empty() || !m.inter.empty();
  if (!F.hierarchical() && !forcing) return nullptr;
  const bool tuned = !forcing && range && range->method.kind == Method::kHier;
  const HierForced forced = forcing ? HierForced{m.composition, m.inter}
                            : tuned ? HierForced{range->method.name, range->method.inter}
                                    : HierForced{};
  std::string unfit;
  const HierChoice* choice = choose_composition(L, F, call.args, call.unit_bytes, tuned ? range->segment_bytes : 0,
                                                forced, &unfit, m.tuning ? &m.tuning->machine : nullptr);
  if (!unfit.empty()) *note = unfit + " does not fit this call";
  return choice;
}

// Every rank's schedule (build(r)), appended in rank order.  The last
// rank's (the one before when the last is the root), built first, sizes the room for all p ranks (twice its size for
// each: leaders and roots have more steps than the others; what stays
// unused costs no memory; beyond a cap the vectors grow as usual) and
// tells a call of more than max_steps steps before it is built: false
// (and *error) then, or when the steps pass max_steps on the way.
template <class Build>
bool add_ranks(int p, int root, int64_t max_steps, const Build& build, CompactSchedules* out, std::string* error) {
  const int typical = root == p - 1 && p > 1 ? p - 2 : p - 1;
  const Schedule first_built = build(typical);
  const int64_t steps = static_cast<int64_t>(first_built.steps.size());
  const int64_t succs = static_cast<int64_t>(first_built.succ.size());
  auto too_many = [&](const std::string& why) {
    *error = why + ", more than --max-steps " + std::to_string(max_steps);
    return false;
  };
  if (steps * p > max_steps)
    return too_many("about " + std::to_string(steps * p) + " steps (" + std::to_string(steps) + " a rank x " +
                    std::to_string(p) + " ranks)");
  const int64_t cap = int64_t{1} << 28;  // address space asked for stays far below memory + swap
  out->reserve(std::min(cap, 2 * steps * p + 64), std::min(2 * cap, 2 * succs * p + 64));
  for (int r = 0; r < p; ++r) {
    if (r == typical) out->add_rank(first_built);
    else out->add_rank(build(r));
    if (out->steps() > max_steps) return too_many("the ranks up to " + std::to_string(r) + " have more steps");
  }
  return true;
}

}  // namespace

bool call_schedules(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m,
                    CallSchedules* out, std::string* error, int64_t max_steps) {
  out->schedules = CompactSchedules{};
  out->note.clear();
  const Op op = call.args.op;
  // The tuning file's range (runtime/run.cc tuned_for): forced knobs hide it.
  const TunedRange* range = nullptr;
  if (m.tuning && m.algorithm.empty() && m.composition.empty() && m.inter.empty())
    range = find_range(*m.tuning, op, tuning_bytes(op, call.unit_bytes, call.args));
  if (range && range->method.kind == Method::kNative) {
    *error = "the tuning file's method for this size is native (Open MPI's own), which cannot be simulated";
    return false;
  }
  const int p = call.args.size;
  const HierChoice* choice =
      m.hier && m.algorithm.empty() && (!range || range->method.kind == Method::kHier)
          ? hier_choice(L, F, call, m, range, &out->note)
          : nullptr;
  if (choice) {
    out->algorithm = choice->name;
    CollArgs a = call.args;
    auto build = [&](int r) {
      a.rank = r;
      return build_composed(*choice, L, a);
    };
    return add_ranks(p, call.args.root, max_steps, build, &out->schedules, error);
  }
  FlatRequest req;
  req.forced = m.algorithm;
  if (range && range->method.kind == Method::kFlat) {
    req.tuned = range->method.name;
    req.tuned_segment = range->segment_bytes;
  }
  req.machine = m.tuning ? &m.tuning->machine : nullptr;
  req.links = F.links;
  const FlatDecision d = decide_flat(call.args, call.unit_bytes, req);
  if (d.unfit_forced || d.unfit_tuned)
    out->note = std::string("algorithm ") + (d.unfit_forced ? d.unfit_forced : d.unfit_tuned) +
                " does not fit this call; using " + d.algorithm->name;
  out->algorithm = d.algorithm->name;
  CollArgs a = call.args;
  a.seg_units = d.seg_units;
  auto build = [&](int r) {
    a.rank = r;
    return build_schedule(*d.algorithm, a);
  };
  return add_ranks(p, call.args.root, max_steps, build, &out->schedules, error);
}

}  // namespace hiercoll
