#include "decide/phase_choice.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "algorithms/blocks.h"
#include "decide/candidate.h"
#include "decide/model_cost.h"
#include "select/flat_rules.h"
#include "select/model_figures_json.h"

namespace hiercoll {

namespace {

// Steps of one phase candidate's schedules at most (a group of one level
// past it is derived from smaller ones where it spans nodes).
constexpr int64_t kPhaseMaxSteps = int64_t{1} << 16;

// One level's group of p ranks: p nodes of one rank, or one node of p.
Layout level_layout(bool inter, int p) {
  std::vector<int> node(p, 0);
  if (inter)
    for (int r = 0; r < p; ++r) node[r] = r;
  return make_layout(node, std::vector<int>(p, 0), "none");
}

// A reduce-scatter's phase is costed by all its blocks' bytes, which
// every member knows, as even blocks.
bool by_all_blocks(const CollArgs& a) { return a.op == Op::kReduceScatter; }

// The units the phase is costed by: all blocks' (a member's own may be
// empty where others' are not), else its count.
int64_t phase_units(const CollArgs& a) { return by_all_blocks(a) ? selection_bytes(a.op, 1, a) : a.count; }

// `a.count` units in all as even blocks (algorithms/blocks.h), each
// rank's block its count.
void as_even_blocks(CollArgs* a) {
  const Blocks b = even_blocks(a->count, a->size);
  a->counts = b.n;
  a->displs = b.off;
  a->count = a->counts[a->rank];
}

class ModelPhases final : public PhaseChooser {
 public:
  explicit ModelPhases(const Figures& fig) : fig_(fig) {}

  const Algorithm* cheapest(bool inter, int copies, const CollArgs& sub, int64_t unit_bytes,
                            const MachineFigures* machine) const override {
    if (sub.size < 2 || unit_bytes <= 0) return nullptr;
    const int cls = size_class(phase_units(sub) * unit_bytes);
    const int64_t alpha_over_beta = machine ? machine->alpha_over_beta_bytes() : -1;
    if (!fig_.model.cores_shared_by_all || fig_.model.cores <= 0) copies = 1;
    const Key key{sub.op, inter, copies, sub.size, cls, sub.commutative, sub.root == 0, unit_bytes, alpha_over_beta};
    std::lock_guard<std::mutex> lock(mu_);
    auto it = memo_.find(key);
    if (it == memo_.end()) it = memo_.emplace(key, costed(inter, copies, sub, cls, unit_bytes, machine)).first;
    return it->second;
  }

 private:
  using Key = std::tuple<Op, bool, int, int, int, bool, bool, int64_t, int64_t>;

  // The figures one of `copies` groups sees where all ranks share the
  // cores: its share of them, and below one core the one core that much
  // slower (its reductions and message handling), as the others' work
  // interleaves with its own.
  Figures share_of_cores(int copies) const {
    Figures f = fig_;
    if (copies <= 1) return f;
    const double share = static_cast<double>(f.model.cores) / copies;
    if (share >= 1) {
      f.model.cores = static_cast<int>(share);
    } else {
      f.model.cores = 1;
      f.model.reduce_gbps *= share;
      f.model.message_cpu_us /= share;
    }
    return f;
  }

  // The cheapest fitting algorithm at the class's representative size;
  // ties go to the registry's order.  Null where none could be costed.
  const Algorithm* costed(bool inter, int copies, const CollArgs& sub, int cls, int64_t unit_bytes,
                          const MachineFigures* machine) const {
    const Figures fig = share_of_cores(copies);
    const Layout L = level_layout(inter, sub.size);
    const LayoutFacts F = layout_facts(L);
    SimCall call;
    call.args = sub;
    call.args.rank = 0;
    call.args.root = 0;
    call.args.seg_units = 0;
    call.args.count = phase_units(sub) == 0 ? 0 : std::max<int64_t>(1, class_bytes(cls) / unit_bytes);
    call.unit_bytes = unit_bytes;
    if (by_all_blocks(sub)) as_even_blocks(&call.args);
    const Algorithm* best = nullptr;
    double best_us = 0;
    for (const Algorithm* a : algorithms_for(sub.op)) {
      if (!algorithm_fits(*a, sub) || (a->restrictions & kAllCounts)) continue;
      MethodChoice c;
      c.method.kind = Method::kFlat;
      c.method.name = a->name;
      const ModelCost m = model_cost(L, F, call, c, machine, fig, kPhaseMaxSteps);
      if (m.us < 0) continue;
      if (!best || m.us < best_us) best = a, best_us = m.us;
    }
    return best;
  }

  const Figures fig_;
  mutable std::mutex mu_;
  mutable std::map<Key, const Algorithm*> memo_;
};

}  // namespace

const PhaseChooser* model_phases(const Figures& fig) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<ModelPhases>> by_figures;
  const std::string key = model_figures_json(fig.model, "").dump();
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<ModelPhases>& slot = by_figures[key];
  if (!slot) slot = std::make_unique<ModelPhases>(fig);
  return slot.get();
}

}  // namespace hiercoll
