#include "tune/candidates.h"

#include "flat/arrival_order.h"
#include "flat/registry.h"
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

std::vector<TuneCandidate> candidates(hiercoll::Op op, const hiercoll::Layout& L, int64_t bytes, int64_t unit_bytes,
                                      bool rooted) {
  std::vector<TuneCandidate> out;
  out.push_back({Method{}, {0}});  // native
  const CollArgs a = call_args(op, L, bytes, unit_bytes);
  // Segments are counted on the bytes the rules size them by (the vector,
  // or all blocks of a block collective).
  const int64_t moved = hiercoll::selection_bytes(op, unit_bytes, a);
  for (const Algorithm* alg : hiercoll::algorithms_for(op)) {
    if (!hiercoll::algorithm_fits(*alg, a)) continue;
    if (rooted && (alg->restrictions & hiercoll::kRootZeroOnly)) continue;
    const std::vector<int64_t> segs = alg->segmented ? segment_sizes(moved, unit_bytes) : std::vector<int64_t>{0};
    out.push_back({Method{Method::kFlat, alg->name, ""}, segs});
    // Tree algorithms of rooted calls again in arrival order.
    if (hiercoll::arrival_order_applies(a) &&
        hiercoll::build_arrival_tree(*alg, a, hiercoll::FillOrder::kDepthFirst).is_tree()) {
      Method dynamic{Method::kFlat, alg->name, ""};
      dynamic.dynamic = true;
      out.push_back({dynamic, segs});
    }
  }
  const hiercoll::LayoutFacts F = hiercoll::layout_facts(L);
  for (const HierComposition* comp : hiercoll::compositions_for(op)) {
    if (!hiercoll::composition_applies(*comp, L, F, a)) continue;
    const std::vector<int64_t> segs = comp->segmented ? segment_sizes(moved, unit_bytes) : std::vector<int64_t>{0};
    std::vector<std::string> inter;
    for (const std::string& name : hiercoll::inter_algorithm_names(op))
      if (hiercoll::inter_algorithm_for(*comp, L, a, name)) inter.push_back(name);
    // A composition whose leaders run no flat algorithm (barrier) is one
    // method; otherwise one method per leaders' algorithm.
    if (inter.empty()) out.push_back({Method{Method::kHier, comp->name, ""}, segs});
    for (const std::string& name : inter) out.push_back({Method{Method::kHier, comp->name, name}, segs});
  }
  return out;
}

}  // namespace hctune
