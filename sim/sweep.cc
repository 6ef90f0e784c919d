#include "sim/sweep.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "decide/model_cost.h"
#include "hier/hier_compose.h"
#include "measure/ops.h"
#include "sim/call_schedules.h"

namespace hiercoll {

Layout layout_of(const std::vector<int>& ranks_per_node, const std::string& placement) {
  LayoutKey key;
  key.ranks_per_node = ranks_per_node;
  key.placement = placement;
  const std::vector<int> node_of = nodes_of(key);
  return make_layout(node_of, std::vector<int>(node_of.size(), 0), "none");
}

Layout sim_layout(const SimOptions& opt) { return layout_of(opt.ranks_per_node, opt.placement); }

std::vector<int> sample_roots(int p) {
  std::vector<int> roots = {0, p / 2, p - 1};
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  return roots;
}

namespace {

// One point at one root, under the point's decision d; false with *why
// when it cannot be simulated.
bool simulate_at(const Layout& L, const LayoutFacts& F, const SimOptions& opt, Op op, int64_t bytes, int root,
                 const SimMethod& m, const Decision& d, SimPoint* pt, SimResult* res, std::string* why, bool* over) {
  const SimCall call = bench_call(op, bytes, L.size, root);
  CallSchedules cs;
  if (!decided_schedules(L, F, call, m, d, &cs, why, opt.max_steps)) {
    *over = cs.over_limit;
    return false;
  }
  pt->algorithm = cs.algorithm;
  if (!cs.note.empty()) pt->note = cs.note;
  const auto start = std::chrono::steady_clock::now();
  if (!simulate(SimInput{&cs.schedules, &L.node_of, call.unit_bytes}, opt.model, res, why)) {
    *why = "schedule error: " + *why;
    return false;
  }
  pt->engine_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  pt->events += res->events;
  return true;
}

// A point whose whole schedules pass --max-steps takes its method's cost
// derived from smaller layouts (decide/model_cost.h): the decision's own
// where it derived one for this size, else derived here with samples of up
// to an eighth of --max-steps (the decision's limit, 2^18 steps, leaves
// too few samples of a ring over many ranks per node).  (The v-variants
// are decided by group size, at one size for all: theirs is derived here.)
// False where neither is possible.
bool take_derived_cost(const Layout& L, const SimOptions& opt, const SimCall& call,
                       const SimMethod& m, const Figures& fig, const Decision& d, SimPoint* pt) {
  const Costed& c = d.chosen();
  ModelCost cost{c.us, c.note, c.derived};
  if (!c.derived || !model_decides(call.args.op)) {
    SmallerLayouts smaller(L);
    cost = derived_model_cost(&smaller, call, c.candidate, m.tuning ? &m.tuning->machine : nullptr, fig,
                              opt.max_steps / 8);
  }
  if (!cost.derived) return false;
  const Method& method = c.candidate.method;
  pt->algorithm = (method.kind == Method::kFlat ? method.name : candidate_text(c.candidate)) + " (derived)";
  pt->result = SimResult{};
  pt->result.time_us = cost.us;
  pt->note = cost.note + "; the whole schedules pass --max-steps";
  pt->simulated = pt->derived = true;
  return true;
}

}  // namespace

std::vector<SimPoint> run_sweep(const SimOptions& opt, const Layout& L, const TuningEntry* tuning, bool progress) {
  const LayoutFacts F = layout_facts(L);
  const Figures figures{opt.model, "the simulated machine's figures"};
  std::vector<SimPoint> points;
  for (const std::string& op_text : opt.ops) {
    const hcbench::OpInfo& info = *hcbench::find_op(op_text);
    Op op;
    op_from_name(info.flat_op, &op);
    const std::vector<int64_t> sizes = info.sized ? opt.sizes : std::vector<int64_t>{0};
    for (int64_t bytes : sizes)
      for (const std::string& impl : opt.impls) {
        SimPoint pt;
        pt.op = op_text;
        pt.bytes = bytes;
        pt.impl = impl;
        SimMethod m;
        if (!method_for_impl(impl, op, tuning, &m, &pt.note)) {
          points.push_back(pt);
          continue;
        }
        // The simulated runtime decides from the simulated machine's
        // figures, as a tuning file or a probe would give them to it.
        m.figures = &figures;
        if (impl == "tuned" && !tuning) pt.note = "the tuning file has no entry for this layout: the model decides";
        std::vector<SimResult> at_roots;
        const std::vector<int> roots = !info.rooted        ? std::vector<int>{0}
                                       : opt.roots.empty() ? sample_roots(L.size)
                                                           : opt.roots;
        const Decision d = call_decision(L, F, bench_call(op, bytes, L.size, roots[0]), m);
        bool over = false;
        for (int root : roots) {
          SimResult res;
          std::string why;
          if (!simulate_at(L, F, opt, op, bytes, root, m, d, &pt, &res, &why, &over)) {
            pt.note = why;
            at_roots.clear();
            break;
          }
          at_roots.push_back(res);
        }
        if (at_roots.empty() && over)
          take_derived_cost(L, opt, bench_call(op, bytes, L.size, roots[0]), m, figures, d, &pt);
        if (!at_roots.empty()) {
          std::sort(at_roots.begin(), at_roots.end(),
                    [](const SimResult& a, const SimResult& b) { return a.time_us < b.time_us; });
          pt.result = at_roots[at_roots.size() / 2];
          pt.roots = static_cast<int>(at_roots.size());
          pt.simulated = true;
        }
        if (progress)
          std::fprintf(stderr, "simulated %s %lld %s: %lld steps, %lld messages; engine %.2f s, %.2f M events/s\n",
                       pt.op.c_str(), static_cast<long long>(bytes), impl.c_str(),
                       static_cast<long long>(pt.result.steps), static_cast<long long>(pt.result.messages),
                       pt.engine_s, pt.engine_s > 0 ? pt.events / pt.engine_s / 1e6 : 0.0);
        points.push_back(pt);
      }
  }
  return points;
}

}  // namespace hiercoll
