#include "decide/decide.h"

#include <algorithm>
#include <cmath>

#include "hier/hier_registry.h"
#include "select/flat_choice.h"
#include "decide/model_cost.h"
#include "decide/native_rules.h"

namespace hiercoll {

const char* source_name(Source s) {
  switch (s) {
    case Source::kModel: return "model";
    case Source::kFile: return "file";
    case Source::kKnob: return "knob";
    case Source::kRules: return "rules";
  }
  return "?";
}

namespace {

// The model's cost of one candidate (decide/model_cost.h) into k.
void cost_by_model(const DecideInput& in, const SimCall& call, const Figures& fig, SmallerLayouts* smaller,
                   Costed* k) {
  const MachineFigures* machine = in.tuning ? &in.tuning->machine : nullptr;
  ModelCost m = model_cost(*in.layout, *in.facts, call, k->candidate, machine, fig, in.max_steps, smaller);
  k->us = m.us;
  k->note = std::move(m.note);
  k->derived = m.derived;
}

// What a knob makes of the winner w (the runtime's forced path,
// runtime/hier_run.cc and select/flat_choice.h, decides alike): a forced
// flat algorithm where it fits; a forced composition where it applies, else
// w's composition (or the rules' where w is flat), with a forced leaders'
// algorithm where that takes it.  What does not fit is named in *unfit.
MethodChoice forced_candidate(const DecideInput& in, const SimCall& call, const MethodChoice& w, std::string* unfit) {
  const Forced& f = in.forced;
  const CollArgs& a = call.args;
  MethodChoice c;
  c.segment_bytes = in.scope.forced_segment;
  if (!f.algorithm.empty()) {
    const Algorithm* alg = find_algorithm(a.op, f.algorithm);
    if (alg && algorithm_fits(*alg, a) && !(in.scope.no_count_exchange && (alg->restrictions & kAllCounts))) {
      c.method = Method{Method::kFlat, f.algorithm, ""};
      return c;
    }
    *unfit = "algorithm " + f.algorithm;
    return w;
  }
  if (!in.scope.hier) return w;  // mode flat runs no composition
  const Layout& L = *in.layout;
  const LayoutFacts& F = *in.facts;
  const HierComposition* comp = nullptr;
  if (!f.composition.empty()) {
    const HierComposition* fc = find_composition(a.op, f.composition);
    if (fc && composition_applies(*fc, L, F, a)) comp = fc;
    else *unfit = "composition " + f.composition;
  }
  if (!comp && w.method.kind == Method::kHier) comp = find_composition(a.op, w.method.name);
  if (!comp && F.hierarchical()) comp = selected_composition(L, F, a);
  if (!f.inter.empty() && !(comp && inter_algorithm_for(*comp, L, a, f.inter)))
    *unfit += (unfit->empty() ? "" : ", ") + std::string("inter-node algorithm ") + f.inter;
  if (!comp) return w;
  c.method = Method{Method::kHier, comp->name, ""};
  if (!f.inter.empty() && inter_algorithm_for(*comp, L, a, f.inter)) c.method.inter = f.inter;
  return c;
}

// Open MPI's own, in mode hier (mode flat runs flat methods only): costed
// as the algorithm its fixed rules pick (decide/native_rules.h), the same
// cost as that flat candidate where it is one, so on a tie ours (earlier)
// stays first; not costed where the pick has no schedule here.
void add_native(const DecideInput& in, const SimCall& call, const Figures& fig, SmallerLayouts* smaller,
                Decision* d) {
  if (!in.scope.hier) return;
  const NativeAlgorithm n = native_algorithm(call);
  if (n.ompi_name.empty()) return;
  Costed k;
  k.candidate.method.kind = Method::kNative;
  k.us = -1;
  if (!n.costed) {
    k.note = "coll/tuned's " + n.ompi_name + ": no schedule of its shape here";
  } else {
    auto same = std::find_if(d->ranked.begin(), d->ranked.end(), [&](const Costed& c) { return c.candidate == n.as; });
    if (same != d->ranked.end()) {
      k.us = same->us, k.derived = same->derived;
    } else if (const Algorithm* alg = find_algorithm(call.args.op, n.as.method.name);
               alg && algorithm_fits(*alg, call.args)) {
      Costed as;
      as.candidate = n.as;
      cost_by_model(in, call, fig, smaller, &as);
      k.us = as.us, k.derived = as.derived;
    }
    k.note = "as coll/tuned's " + n.ompi_name + ": " + candidate_text(n.as);
  }
  d->ranked.push_back(std::move(k));
}

// Past its three segments (decide/candidates.h), a segmented method's
// segment walks from its cheapest one on, to half or twice it, while the
// model finds that cheaper: the default segment follows the two-tree
// paper's optimum under alpha-beta figures, which a machine whose cores
// are shared or whose reductions cost can move by more than a factor 4.
// A smaller segment must be predicted kSmallerGain cheaper: each segment
// pays a message's overheads, which the model holds least well (its
// prediction flattens where the exhaustive tunings measure smaller
// segments slower), so a smaller one that gains less is no candidate.
// Every other segment tried is ranked with the others.  Methods whose
// cheapest segment costs over kWalkWithin times the cheapest candidate's
// are left as they are: a segment seldom gains that much.
constexpr double kSmallerGain = 0.03;
constexpr double kWalkWithin = 1.5;

void walk_segments(const DecideInput& in, const SimCall& call, const Figures& fig, SmallerLayouts* smaller,
                   Decision* d) {
  const size_t initial = d->ranked.size();
  double best = -1;
  for (const Costed& k : d->ranked)
    if (k.us >= 0 && (best < 0 || k.us < best)) best = k.us;
  for (size_t i = 0; i < initial; ++i) {
    const Costed k = d->ranked[i];  // (a copy: the walk appends to d->ranked)
    if (k.us < 0 || k.us > kWalkWithin * best || k.candidate.method.kind == Method::kNative) continue;
    bool cheapest = true;  // of its method's segments (the first of equals)
    for (size_t j = 0; j < initial && cheapest; ++j) {
      const Costed& o = d->ranked[j];
      if (j == i || o.us < 0 || !(o.candidate.method == k.candidate.method)) continue;
      cheapest = k.us < o.us || (k.us == o.us && i < j);
    }
    if (!cheapest) continue;
    // From neighbour to cheaper neighbour until neither is cheaper.
    MethodChoice at = k.candidate;
    double us = k.us;
    for (bool moved = true; moved;) {
      moved = false;
      for (bool down : {true, false}) {
        MethodChoice next;
        if (!segment_step(*in.layout, call, in.scope, at, down, &next)) continue;
        auto it = std::find_if(d->ranked.begin(), d->ranked.end(), [&](const Costed& c) { return c.candidate == next; });
        if (it == d->ranked.end()) {
          Costed t;
          t.candidate = next;
          cost_by_model(in, call, fig, smaller, &t);
          if (down && t.us >= 0 && t.us < us && t.us > (1 - kSmallerGain) * us) continue;
          d->ranked.push_back(std::move(t));
          it = d->ranked.end() - 1;
        }
        if (it->us >= 0 && it->us < (down ? (1 - kSmallerGain) * us : us)) {
          at = next;
          us = it->us;
          moved = true;
          break;
        }
      }
    }
  }
}

void move_first(std::vector<Costed>* v, size_t i) {
  if (i == 0) return;
  Costed keep = std::move((*v)[i]);
  v->erase(v->begin() + static_cast<std::ptrdiff_t>(i));
  v->insert(v->begin(), std::move(keep));
}

}  // namespace

const TunedRange* file_range(const DecideInput& in, Op op, int64_t bytes) {
  if (!in.tuning || !in.file_ranges) return nullptr;
  const TunedRange* r = find_range(*in.tuning, op, bytes);
  if (r && !in.scope.hier && r->method.kind != Method::kFlat) return nullptr;  // mode flat: flat methods only
  return r;
}

namespace {

// The file's measurement for its method, where it has one for the size:
// it replaces the model's cost of that candidate (or joins them) and will
// win (the tuner measured the others slower).
void add_file_measurement(const DecideInput& in, const SimCall& call, int64_t file_bytes, Decision* d) {
  const Op op = call.args.op;
  const TunedRange* range =
      file_range(in, op, file_bytes >= 0 ? file_bytes : tuning_bytes(op, call.unit_bytes, call.args));
  if (!range) return;
  Costed k;
  k.candidate.method = range->method;
  k.candidate.segment_bytes = range->segment_bytes;
  k.us = range->predicted_us;
  k.source = Source::kFile;
  auto same = std::find_if(d->ranked.begin(), d->ranked.end(),
                           [&](const Costed& c) { return c.candidate == k.candidate; });
  const bool known = std::any_of(d->ranked.begin(), d->ranked.end(), [&](const Costed& c) {
    Method m = range->method;
    m.dynamic = false;
    return c.candidate.method == m;
  });
  if (same != d->ranked.end()) *same = k;
  else if (known || range->method.kind == Method::kNative) d->ranked.push_back(k);
  else d->note = "the tuning file's " + candidate_text(k.candidate) + " does not fit this call";
}

// The rules' method first (found among the costed ones, or added), as
// source kRules, with why.
void rules_first(const DecideInput& in, const SimCall& call, const char* why, Decision* d) {
  const MethodChoice r = rules_candidate(*in.layout, *in.facts, call, in.scope);
  auto it = std::find_if(d->ranked.begin(), d->ranked.end(), [&](const Costed& c) { return c.candidate == r; });
  if (it == d->ranked.end()) {
    Costed k;
    k.candidate = r;
    k.us = -1;
    d->ranked.insert(d->ranked.begin(), std::move(k));
    it = d->ranked.begin();
  }
  it->source = Source::kRules;
  it->note = why;
  move_first(&d->ranked, static_cast<size_t>(it - d->ranked.begin()));
  d->source = Source::kRules;
}

// Cheapest first (stable: ties keep the candidates' order, the plain
// composition before its forced leaders' algorithms), the ones not costed
// last; the file's method first; the rules' method first where nothing
// could be costed or the model does not decide the operation.
void rank(const DecideInput& in, const SimCall& call, Decision* d) {
  std::stable_sort(d->ranked.begin(), d->ranked.end(), [](const Costed& a, const Costed& b) {
    if ((a.us < 0) != (b.us < 0)) return b.us < 0;
    return cost_ns(a.us) < cost_ns(b.us);
  });
  for (size_t i = 0; i < d->ranked.size(); ++i)
    if (d->ranked[i].source == Source::kFile) {
      move_first(&d->ranked, i);
      d->source = Source::kFile;
      break;
    }
  if (d->source == Source::kFile) return;
  if (d->ranked.empty() || d->ranked[0].us < 0) rules_first(in, call, "no candidate could be costed", d);
  else if (!model_decides(call.args.op)) rules_first(in, call, "the rules decide this operation", d);
}

// A knob's method first (forced_candidate), costed where the model had not.
void apply_knob(const DecideInput& in, const SimCall& call, const Figures& fig, SmallerLayouts* smaller,
                Decision* d) {
  std::string unfit;
  const MethodChoice f = forced_candidate(in, call, d->ranked[0].candidate, &unfit);
  if (!unfit.empty()) d->note = unfit + " does not fit this call";
  if (f == d->ranked[0].candidate && !unfit.empty()) return;
  auto it = std::find_if(d->ranked.begin(), d->ranked.end(), [&](const Costed& c) { return c.candidate == f; });
  if (it == d->ranked.end()) {
    Costed k;
    k.candidate = f;
    cost_by_model(in, call, fig, smaller, &k);
    d->ranked.push_back(std::move(k));
    it = d->ranked.end() - 1;
  }
  it->source = Source::kKnob;
  move_first(&d->ranked, static_cast<size_t>(it - d->ranked.begin()));
  d->source = Source::kKnob;
}

}  // namespace

Decision decide(const DecideInput& in, const SimCall& call, int64_t file_bytes) {
  const Figures& fig = in.figures ? *in.figures : builtin_figures();
  Decision d;
  SmallerLayouts smaller(*in.layout);  // built where a candidate passes the step limit
  if (!in.rank_all && !in.tuning && (!in.forced.algorithm.empty() || !in.forced.composition.empty())) {
    std::string unfit;
    const MethodChoice f = forced_candidate(in, call, MethodChoice{}, &unfit);
    if (unfit.empty() && !f.method.name.empty()) {
      Costed k;
      k.candidate = f;
      cost_by_model(in, call, fig, &smaller, &k);
      k.source = Source::kKnob;
      d.ranked.push_back(std::move(k));
      d.source = Source::kKnob;
      return d;
    }
  }
  for (const MethodChoice& c : candidates_for(*in.layout, *in.facts, call, in.scope)) {
    Costed k;
    k.candidate = c;
    cost_by_model(in, call, fig, &smaller, &k);
    d.ranked.push_back(std::move(k));
  }
  walk_segments(in, call, fig, &smaller, &d);
  add_native(in, call, fig, &smaller, &d);
  add_file_measurement(in, call, file_bytes, &d);
  rank(in, call, &d);
  if (in.forced.any()) apply_knob(in, call, fig, &smaller, &d);
  return d;
}

int64_t cost_ns(double us) { return std::llround(us * 1000); }

bool model_decides(Op op) {
  return op != Op::kGatherv && op != Op::kScatterv && op != Op::kAlltoallv && op != Op::kAllgatherv;
}

MethodChoice rules_candidate(const Layout& L, const LayoutFacts& F, const SimCall& call, const CandidateScope& scope) {
  MethodChoice c;
  const CollArgs& a = call.args;
  const HierComposition* comp =
      scope.hier && F.hierarchical() ? selected_composition(L, F, a) : nullptr;
  if (comp && !(scope.no_count_exchange && (comp->needs & kNeedAllCounts))) {
    c.method.kind = Method::kHier;
    c.method.name = comp->name;
    return c;
  }
  FlatRequest req;
  req.machine = scope.machine;
  req.links = F.links;
  req.no_count_exchange = scope.no_count_exchange;
  c.method.kind = Method::kFlat;
  c.method.name = decide_flat(a, call.unit_bytes, req).algorithm->name;
  c.segment_bytes = scope.forced_segment;
  return c;
}

Decision decide_class(const DecideInput& in, Op op, int64_t bytes, bool commutative) {
  SimCall call = bench_call(op, class_bytes(size_class(bytes)), in.layout->size, 0);
  call.args.commutative = commutative;
  return decide(in, call, bytes);
}

}  // namespace hiercoll
