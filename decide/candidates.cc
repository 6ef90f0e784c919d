#include "decide/candidates.h"

#include <algorithm>

#include "hier/hier_registry.h"
#include "select/flat_rules.h"

namespace hiercoll {

int64_t default_segment_of(const Algorithm& a, const SimCall& call, const MachineFigures* machine) {
  return default_segment_bytes(a, selection_bytes(call.args.op, call.unit_bytes, call.args), call.args.size,
                               machine);
}

namespace {

// The segments a segmented method is tried with: its default `def` and a
// quarter and four times it, each as the bounds of select/flat_rules.h
// raise it (the runtime runs nothing else), each distinct one once; 0
// names the default, as the runtime does.  Segments of the whole message
// or more are one: they all run it unsegmented.
std::vector<int64_t> segment_variants(int64_t def, const SimCall& call, const CandidateScope& scope) {
  if (scope.forced_segment > 0) return {scope.forced_segment};
  const int64_t message_units = selection_bytes(call.args.op, 1, call.args);
  std::vector<int64_t> seen_units, out;
  for (int64_t seg : {def, def / 4, def * 4}) {
    int64_t units = bounded_seg_units(call.args, call.unit_bytes, std::max<int64_t>(1, seg / call.unit_bytes));
    if (message_units > 0) units = std::min(units, message_units);
    if (std::find(seen_units.begin(), seen_units.end(), units) != seen_units.end()) continue;
    seen_units.push_back(units);
    out.push_back(seg == def ? 0 : seg);
  }
  return out;
}

std::vector<int64_t> flat_segments(const Algorithm& a, const SimCall& call, const CandidateScope& scope) {
  if (!a.segmented || call.unit_bytes <= 0) return {0};
  return segment_variants(default_segment_of(a, call, scope.machine), call, scope);
}

// A segmented composition's: its phases' pipelines at those segments.
std::vector<int64_t> composition_segments(const HierComposition& comp, const Layout& L, const SimCall& call,
                                          const CandidateScope& scope) {
  if (!comp.segmented || call.unit_bytes <= 0) return {scope.forced_segment};
  return segment_variants(composition_default_segment_bytes(comp, L, call.args, call.unit_bytes, scope.machine),
                          call, scope);
}

// The default segment of a segmented method for the call, in bytes; 0
// where the method is not segmented.
int64_t default_segment_for(const Method& m, const Layout& L, const SimCall& call, const CandidateScope& scope) {
  if (m.kind == Method::kFlat) {
    const Algorithm* a = find_algorithm(call.args.op, m.name);
    return a && a->segmented ? default_segment_of(*a, call, scope.machine) : 0;
  }
  if (m.kind != Method::kHier) return 0;
  const HierComposition* comp = find_composition(call.args.op, m.name);
  return comp && comp->segmented
             ? composition_default_segment_bytes(*comp, L, call.args, call.unit_bytes, scope.machine)
             : 0;
}

}  // namespace

bool segment_step(const Layout& L, const SimCall& call, const CandidateScope& scope, const MethodChoice& c, bool down,
                  MethodChoice* next) {
  if (scope.forced_segment > 0 || call.unit_bytes <= 0) return false;
  const int64_t def = default_segment_for(c.method, L, call, scope);
  if (def <= 0) return false;
  const int64_t seg = c.segment_bytes > 0 ? c.segment_bytes : def;
  const int64_t to = down ? seg / 2 : seg * 2;
  const auto units = [&](int64_t bytes) {
    return bounded_seg_units(call.args, call.unit_bytes, std::max<int64_t>(1, bytes / call.unit_bytes));
  };
  if (to <= 0) return false;
  const int64_t from_units = units(seg), to_units = units(to);  // as the runtime runs them
  if (to_units == from_units || (!down && from_units >= selection_bytes(call.args.op, 1, call.args))) return false;
  *next = c;
  next->segment_bytes = to_units == units(def) ? 0 : to_units * call.unit_bytes;
  return true;
}

std::vector<MethodChoice> candidates_for(const Layout& L, const LayoutFacts& F, const SimCall& call,
                                      const CandidateScope& scope) {
  std::vector<MethodChoice> out;
  const CollArgs& a = call.args;
  for (const Algorithm* alg : algorithms_for(a.op)) {
    if (!algorithm_fits(*alg, a) || (scope.no_count_exchange && (alg->restrictions & kAllCounts))) continue;
    for (int64_t seg : flat_segments(*alg, call, scope)) {
      MethodChoice c;
      c.method.kind = Method::kFlat;
      c.method.name = alg->name;
      c.segment_bytes = seg;
      out.push_back(c);
    }
  }
  if (!scope.hier || !F.hierarchical()) return out;
  const std::vector<std::string> inters = inter_algorithm_names(a.op);
  for (const HierComposition* comp : compositions_for(a.op)) {
    if (!composition_applies(*comp, L, F, a)) continue;
    if (scope.no_count_exchange && (comp->needs & kNeedAllCounts)) continue;
    for (int64_t seg : composition_segments(*comp, L, call, scope)) {
      MethodChoice c;
      c.method.kind = Method::kHier;
      c.method.name = comp->name;
      c.segment_bytes = seg;
      out.push_back(c);
      for (const std::string& inter : inters) {
        if (!inter_algorithm_for(*comp, L, a, inter)) continue;
        c.method.inter = inter;
        out.push_back(c);
      }
    }
  }
  return out;
}

}  // namespace hiercoll
