#include "tune/candidates.h"

#include <algorithm>

#include "decide/candidates.h"

#include "algorithms/registry.h"
#include "arrival/arrival_order.h"
#include "hier/hier_registry.h"
#include "select/flat_rules.h"

namespace hctune {

using hiercoll::Algorithm;
using hiercoll::CollArgs;
using hiercoll::HierComposition;
using hiercoll::Method;

namespace {

// The call as the registries' restrictions see it: the whole group, root
// 0, a commutative operation (the tuner reduces floats with MPI_SUM),
// equal blocks.
CollArgs call_args(hiercoll::Op op, const hiercoll::Layout& L, int64_t bytes, int64_t unit_bytes) {
  CollArgs a;
  a.op = op;
  a.size = L.size;
  a.count = op == hiercoll::Op::kBarrier ? 0 : std::max<int64_t>(1, bytes / std::max<int64_t>(1, unit_bytes));
  if (op == hiercoll::Op::kReduceScatter) a.counts.assign(L.size, a.count);
  return a;
}

}  // namespace

std::vector<int64_t> segment_sizes(int64_t bytes, int64_t unit_bytes) {
  std::vector<int64_t> v;
  int64_t s = kMinSegmentBytes;
  while (s * 2 < bytes) s *= 2;
  for (; s >= kMinSegmentBytes && s < bytes; s /= 2)
    if (unit_bytes <= 0 || s % unit_bytes == 0) v.push_back(s);
  if (v.empty()) v.push_back(0);  // no segment below the message: unsegmented (the rules)
  return v;
}

std::vector<int64_t> runtime_segments(const CollArgs& a, int64_t unit_bytes) {
  const int64_t moved = hiercoll::selection_bytes(a.op, unit_bytes, a);
  std::vector<int64_t> out;
  for (int64_t s : segment_sizes(moved, unit_bytes)) {
    const int64_t runs =
        s > 0 ? hiercoll::bounded_seg_units(a, unit_bytes, s / std::max<int64_t>(1, unit_bytes)) * unit_bytes : 0;
    if (out.empty() || out.back() != runs) out.push_back(runs);  // bounds only raise: equal ones are adjacent
  }
  return out;
}

std::vector<TuneCandidate> candidates(hiercoll::Op op, const hiercoll::Layout& L, int64_t bytes, int64_t unit_bytes,
                                      bool rooted) {
  std::vector<TuneCandidate> out;
  out.push_back({Method{}, {0}});  // native
  const CollArgs a = call_args(op, L, bytes, unit_bytes);
  const std::vector<int64_t> segs = runtime_segments(a, unit_bytes);
  // The methods the runtime's decision weighs (decide/candidates.h), each
  // once, in its order.
  hiercoll::SimCall call;
  call.args = a;
  call.unit_bytes = unit_bytes;
  const hiercoll::LayoutFacts F = hiercoll::layout_facts(L);
  std::vector<Method> methods;
  for (const hiercoll::MethodChoice& c : hiercoll::candidates_for(L, F, call, hiercoll::CandidateScope{}))
    if (std::find(methods.begin(), methods.end(), c.method) == methods.end()) methods.push_back(c.method);
  for (const Method& m : methods) {
    if (m.kind == Method::kFlat) {
      const Algorithm* alg = hiercoll::find_algorithm(op, m.name);
      if (rooted && (alg->restrictions & hiercoll::kRootZeroOnly)) continue;
      out.push_back({m, alg->segmented ? segs : std::vector<int64_t>{0}});
      // Tree algorithms of rooted calls again in arrival order.
      if (hiercoll::arrival_order_applies(a) &&
          hiercoll::build_arrival_tree(*alg, a, hiercoll::FillOrder::kDepthFirst).is_tree()) {
        Method dynamic = m;
        dynamic.dynamic = true;
        out.push_back({dynamic, out.back().segments});
      }
      continue;
    }
    // A composition: its leaders' algorithms (or, without a leaders'
    // phase, the composition alone); the phase rules' leaders are the
    // tuner's to measure through a named algorithm.
    const HierComposition* comp = hiercoll::find_composition(op, m.name);
    const bool named_leaders = !hiercoll::inter_algorithm_names(op).empty() &&
                               std::any_of(methods.begin(), methods.end(), [&](const Method& o) {
                                 return o.kind == Method::kHier && o.name == m.name && !o.inter.empty();
                               });
    if (m.inter.empty() && named_leaders) continue;
    out.push_back({m, comp->segmented ? segs : std::vector<int64_t>{0}});
  }
  return out;
}

}  // namespace hctune
