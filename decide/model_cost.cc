#include "decide/model_cost.h"

#include <vector>

#include "decide/candidates.h"
#include "decide/growth_fit.h"
#include "decide/phase_choice.h"
#include "decide/scaled_layout.h"
#include "select/flat_rules.h"
#include "select/tuning_file.h"
#include "sim/engine.h"

namespace hiercoll {

namespace {

// Samples kept for the fit: the largest layouts, which are most like the
// whole one.
constexpr size_t kMostSamples = 5;

// The candidate simulated on L; < 0 with *why (and *over where the step
// limit stopped it).
double simulated_us(const Layout& L, const LayoutFacts& F, const SimCall& call, const MethodChoice& c,
                    const MachineFigures* machine, const Figures& fig, int64_t max_steps, std::string* why,
                    bool* over) {
  CandidateSchedules cs;
  const bool built = candidate_schedules(L, F, call, c, machine, model_phases(fig), max_steps, &cs, why);
  *over = cs.over_limit;
  if (!built) return -1;
  SimResult res;
  if (!simulate(SimInput{&cs.schedules, &L.node_of, call.unit_bytes}, fig.model, &res, why)) {
    *why = "schedule error: " + *why;
    return -1;
  }
  return res.time_us;
}

// The candidate as it runs on the whole layout: a flat algorithm's default
// segment is the one for the whole group, not each sample's.
MethodChoice fixed_segment(const SimCall& call, const MethodChoice& c, const MachineFigures* machine) {
  MethodChoice f = c;
  if (c.method.kind != Method::kFlat || c.segment_bytes > 0 || call.unit_bytes <= 0) return f;
  const Algorithm* alg = find_algorithm(call.args.op, c.method.name);
  if (alg && alg->segmented) f.segment_bytes = default_segment_of(*alg, call, machine);
  return f;
}

}  // namespace

ModelCost derived_model_cost(SmallerLayouts* smaller, const SimCall& call, const MethodChoice& c,
                             const MachineFigures* machine, const Figures& fig, int64_t max_steps) {
  const Layout& L = smaller->whole();
  const Op op = call.args.op;
  const int64_t bytes = tuning_bytes(op, call.unit_bytes, call.args);
  const MethodChoice sampled = fixed_segment(call, c, machine);
  std::vector<GrowthSample> samples;
  for (int n = 2; n < L.num_nodes; n *= 2) {
    const SmallerLayout& Ln = smaller->with_nodes(n);
    SimCall cn = bench_call(op, bytes, Ln.layout.size, 0);
    cn.args.commutative = call.args.commutative;
    std::string why;
    bool over = false;
    const double us = simulated_us(Ln.layout, Ln.facts, cn, sampled, machine, fig, max_steps, &why, &over);
    if (over) break;
    if (us > 0) samples.push_back({static_cast<double>(n), us});
  }
  if (samples.size() > kMostSamples) samples.erase(samples.begin(), samples.end() - kMostSamples);
  GrowthFit fit;
  ModelCost out;
  if (!fit_growth(samples, L.num_nodes, &fit)) {
    out.note = "too few smaller layouts fit to derive a form";
    return out;
  }
  out.us = fit.us;
  out.derived = true;
  out.note = "derived from " + std::to_string(static_cast<int>(samples.front().nodes)) + "-" +
             std::to_string(static_cast<int>(samples.back().nodes)) + " nodes: " + fit.form;
  return out;
}

ModelCost model_cost(const Layout& L, const LayoutFacts& F, const SimCall& call, const MethodChoice& c,
                     const MachineFigures* machine, const Figures& fig, int64_t max_steps,
                     SmallerLayouts* smaller) {
  ModelCost out;
  bool over = false;
  out.us = simulated_us(L, F, call, c, machine, fig, max_steps, &out.note, &over);
  if (out.us >= 0 || !over || L.num_nodes < 2) return out;
  SmallerLayouts own(L);
  ModelCost d = derived_model_cost(smaller ? smaller : &own, call, c, machine, fig, max_steps);
  if (!d.derived) d.note = out.note + "; " + d.note;
  return d;
}

}  // namespace hiercoll
