#include "decide/model_cost.h"

#include <vector>

#include "decide/candidates.h"
#include "decide/growth_fit.h"
#include "decide/phase_choice.h"
#include "decide/scaled_layout.h"
#include "hier/hier_registry.h"
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
                    const MachineFigures* machine, const Figures& fig, const PhaseChooser* phases, int64_t max_steps,
                    std::string* why, bool* over) {
  CandidateSchedules cs;
  const bool built = candidate_schedules(L, F, call, c, machine, phases, max_steps, &cs, why);
  *over = cs.over_limit;
  if (!built) return -1;
  SimResult res;
  if (!simulate(SimInput{&cs.schedules, &L.node_of, call.unit_bytes}, fig.model, &res, why)) {
    *why = "schedule error: " + *why;
    return -1;
  }
  return res.time_us;
}

// The candidate's time for any root: a rooted call at the first and the
// last rank, averaged.  A flat tree numbered from its root crosses the
// nodes' links once from rank 0 on a layout by slot and at most steps
// from the last rank (bcast of 1 MiB by segmented binomial tree on 2x4:
// 5.7 ms from rank 0, 21 ms from rank 3 or 7), so a decision by root 0
// alone would pick it for every root.  < 0 where either fails.
double over_roots_us(const Layout& L, const LayoutFacts& F, const SimCall& call, const MethodChoice& c,
                     const MachineFigures* machine, const Figures& fig, const PhaseChooser* phases,
                     int64_t max_steps, std::string* why, bool* over) {
  const double first = simulated_us(L, F, call, c, machine, fig, phases, max_steps, why, over);
  if (first < 0 || !is_rooted(call.args.op) || L.size < 2 || call.args.root != 0) return first;
  SimCall last = call;
  last.args.root = L.size - 1;
  const double other = simulated_us(L, F, last, c, machine, fig, phases, max_steps, why, over);
  return other < 0 ? other : (first + other) / 2;
}

// The candidate as it runs on the whole layout: a flat algorithm's default
// segment is the one for the whole group, not each sample's; a
// composition's open leaders' phase runs the algorithm the model picks
// for the whole layout's leaders (decide/phase_choice.h), not the one each
// sample's fewer leaders would, or the fit would join different
// algorithms' times.
MethodChoice as_on_whole(const Layout& L, const SimCall& call, const MethodChoice& c, const MachineFigures* machine,
                         const PhaseChooser* phases) {
  MethodChoice f = c;
  if (c.method.kind == Method::kFlat) {
    const Algorithm* alg = find_algorithm(call.args.op, c.method.name);
    if (alg && alg->segmented && c.segment_bytes <= 0 && call.unit_bytes > 0)
      f.segment_bytes = default_segment_of(*alg, call, machine);
    return f;
  }
  const HierComposition* comp = c.method.kind == Method::kHier && c.method.inter.empty()
                                    ? find_composition(call.args.op, c.method.name)
                                    : nullptr;
  if (!comp || comp->segmented) return f;
  for (int i = 0; i < kNumOps; ++i) {
    if (!(comp->inter_ops & op_bit(static_cast<Op>(i)))) continue;
    const Op op = static_cast<Op>(i);
    if (is_v_op(op) || op == Op::kReduceScatter) break;  // chosen by all blocks: the rules
    const Algorithm* a = phases->cheapest(true, 1, leaders_args(op, L, call.args), call.unit_bytes, machine);
    if (a && inter_algorithm_for(*comp, L, call.args, a->name)) f.method.inter = a->name;
    break;
  }
  return f;
}

// The call's size as bench_call takes it, so that the samples keep the
// blocks' size as the layout shrinks: a v-variant's mean block (its
// tuning_bytes is 0: the rules choose it by group size).
int64_t bench_bytes(const SimCall& call) {
  const CollArgs& a = call.args;
  return is_v_op(a.op) ? mean_block_bytes(call.unit_bytes, a) : tuning_bytes(a.op, call.unit_bytes, a);
}

}  // namespace

ModelCost derived_model_cost(SmallerLayouts* smaller, const SimCall& call, const MethodChoice& c,
                             const MachineFigures* machine, const Figures& fig, int64_t max_steps) {
  const Layout& L = smaller->whole();
  const Op op = call.args.op;
  const int64_t bytes = bench_bytes(call);
  const PhaseChooser* phases = model_phases(fig);
  const MethodChoice sampled = as_on_whole(L, call, c, machine, phases);
  std::vector<GrowthSample> samples;
  for (int n = 2; n < L.num_nodes; n *= 2) {
    const SmallerLayout& Ln = smaller->with_nodes(n);
    SimCall cn = bench_call(op, bytes, Ln.layout.size, 0);
    cn.args.commutative = call.args.commutative;
    std::string why;
    bool over = false;
    const double us =
        over_roots_us(Ln.layout, Ln.facts, cn, sampled, machine, fig, phases, max_steps, &why, &over);
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
  out.us = over_roots_us(L, F, call, c, machine, fig, model_phases(fig), max_steps, &out.note, &over);
  if (out.us >= 0 || !over || L.num_nodes < 2) return out;
  SmallerLayouts own(L);
  ModelCost d = derived_model_cost(smaller ? smaller : &own, call, c, machine, fig, max_steps);
  if (!d.derived) d.note = out.note + "; " + d.note;
  return d;
}

}  // namespace hiercoll
