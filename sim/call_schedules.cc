#include "sim/call_schedules.h"

#include <algorithm>

#include "decide/phase_choice.h"
#include "hier/hier_registry.h"

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

DecideInput decide_input(const Layout& L, const LayoutFacts& F, const SimMethod& m) {
  DecideInput in;
  in.layout = &L;
  in.facts = &F;
  in.tuning = m.tuning;
  in.figures = m.figures;
  in.scope.hier = m.hier;
  in.scope.machine = m.tuning ? &m.tuning->machine : nullptr;
  in.forced = Forced{m.algorithm, m.composition, m.inter};
  in.rank_all = false;  // a forced implementation runs its method whatever the others cost
  return in;
}

Decision call_decision(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m) {
  const Op op = call.args.op;
  return decide_class(decide_input(L, F, m), op, tuning_bytes(op, call.unit_bytes, call.args), call.args.commutative);
}

bool call_schedules(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m,
                    CallSchedules* out, std::string* error, int64_t max_steps) {
  return decided_schedules(L, F, call, m, call_decision(L, F, call, m), out, error, max_steps);
}

bool decided_schedules(const Layout& L, const LayoutFacts& F, const SimCall& call, const SimMethod& m,
                       const Decision& d, CallSchedules* out, std::string* error, int64_t max_steps) {
  out->schedules = CompactSchedules{};
  out->note.clear();
  out->over_limit = false;
  const DecideInput in = decide_input(L, F, m);
  out->note = d.note;
  out->source = d.source;
  const MethodChoice& chosen = d.chosen().candidate;
  if (chosen.method.kind == Method::kNative) {
    *error = "the tuning file's method for this size is native (Open MPI's own), which cannot be simulated";
    return false;
  }
  CandidateSchedules cs;
  std::string unfit;
  const MachineFigures* machine = in.scope.machine;
  const PhaseChooser* phases = model_phases(in.figures ? *in.figures : builtin_figures());
  bool ok = candidate_schedules(L, F, call, chosen, machine, phases, max_steps, &cs, &unfit);
  if (!ok && unfit.find("does not fit") != std::string::npos) {
    // As the runtime: a decided method that does not fit this very call
    // gives way to the rules.
    out->note = unfit;
    ok = candidate_schedules(L, F, call, rules_candidate(L, F, call, in.scope), machine, phases, max_steps,
                              &cs, &unfit);
  }
  if (!ok) {
    *error = unfit;
    out->over_limit = cs.over_limit;
    return false;
  }
  out->schedules = std::move(cs.schedules);
  out->algorithm = cs.algorithm;
  return true;
}

}  // namespace hiercoll
