#include "decide/candidate.h"

#include <algorithm>

#include "hier/hier_registry.h"
#include "select/flat_choice.h"

namespace hiercoll {

std::string candidate_text(const MethodChoice& c) {
  std::string t = method_text(c.method);
  if (c.segment_bytes > 0) {
    const int64_t s = c.segment_bytes;
    t += " seg=" + (s % 1024 == 0 ? std::to_string(s / 1024) + "K" : std::to_string(s));
  }
  return t;
}

namespace {

// Every rank's schedule (build(r)), appended in rank order.  The last
// rank's (the one before when the last is the root), built first, sizes
// the room for all p ranks (twice its size for each: leaders and roots
// have more steps than the others; what stays unused costs no memory;
// beyond a cap the vectors grow as usual) and tells a call of more than
// max_steps steps before it is built: false (and *error) then, or when the
// steps pass max_steps on the way.
template <class Build>
bool add_ranks(int p, int root, int64_t max_steps, const Build& build, CandidateSchedules* cs, std::string* error) {
  CompactSchedules* out = &cs->schedules;
  const int typical = root == p - 1 && p > 1 ? p - 2 : p - 1;
  const Schedule first_built = build(typical);
  const int64_t steps = static_cast<int64_t>(first_built.steps.size());
  const int64_t succs = static_cast<int64_t>(first_built.succ.size());
  auto too_many = [&](const std::string& why) {
    *error = why + ", more than --max-steps " + std::to_string(max_steps);
    cs->over_limit = true;
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

bool candidate_schedules(const Layout& L, const LayoutFacts& F, const SimCall& call, const MethodChoice& c,
                         const MachineFigures* machine, const PhaseChooser* phases, int64_t max_steps,
                         CandidateSchedules* out, std::string* error) {
  *out = CandidateSchedules{};
  const int p = call.args.size;
  CollArgs a = call.args;
  const std::string text = candidate_text(c);
  if (c.method.kind == Method::kHier) {
    std::string unfit;
    const HierChoice* choice = choose_composition(L, F, a, call.unit_bytes, c.segment_bytes,
                                                  HierForced{c.method.name, c.method.inter}, &unfit, machine, phases);
    if (!choice || !unfit.empty()) {
      *error = text + " does not fit this call";
      return false;
    }
    out->algorithm = choice->name;
    auto build = [&](int r) {
      a.rank = r;
      return build_composed(*choice, L, a);
    };
    return add_ranks(p, a.root, max_steps, build, out, error);
  }
  if (c.method.kind != Method::kFlat) {
    *error = text + " is Open MPI's own collective: no hiercoll schedule";
    return false;
  }
  FlatRequest req;
  req.forced = c.method.name;
  req.segment_bytes = c.segment_bytes;
  req.machine = machine;
  req.links = F.links;
  const FlatDecision d = decide_flat(a, call.unit_bytes, req);
  if (d.unfit_forced) {
    *error = text + " does not fit this call";
    return false;
  }
  out->algorithm = d.algorithm->name;
  a.seg_units = d.seg_units;
  auto build = [&](int r) {
    a.rank = r;
    return build_schedule(*d.algorithm, a);
  };
  return add_ranks(p, a.root, max_steps, build, out, error);
}

}  // namespace hiercoll
