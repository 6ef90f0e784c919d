#include "tune/plan.h"

#include <algorithm>
#include <map>

#include "measure/ops.h"
#include "select/profile_file.h"

namespace hctune {

namespace {

bool plans_from_profile(const TuneOptions& opt, const hiercoll::LayoutKey& layout, std::vector<OpPlan>* plans,
                        std::string* error) {
  hiercoll::Profile profile;
  if (!hiercoll::load_profile(opt.profile, &profile, error)) return false;
  const hiercoll::ProfileEntry* entry = nullptr;
  std::string layouts;
  for (const hiercoll::ProfileEntry& e : profile.entries) {
    if (e.layout == layout) entry = &e;
    layouts += (layouts.empty() ? "" : ", ") + hiercoll::layout_text(e.layout);
  }
  if (!entry) {
    *error = opt.profile + ": no calls recorded on layout " + hiercoll::layout_text(layout) +
             " (recorded: " + (layouts.empty() ? "none" : layouts) + ")";
    return false;
  }
  std::map<std::string, OpPlan> by_op;
  for (const hiercoll::ProfileCount& c : entry->counts) {
    const hcbench::OpInfo* op = hcbench::find_op(c.op);
    if (!op) continue;  // reduce_scatter (irregular counts): the tuner measures equal blocks only
    OpPlan& p = by_op[c.op];
    p.op = op;
    p.profile_calls += c.calls;
    const int64_t bytes = op->sized ? std::max<int64_t>(1, c.bytes) : 0;
    if (std::find(p.sizes.begin(), p.sizes.end(), bytes) == p.sizes.end()) p.sizes.push_back(bytes);
  }
  for (auto& kv : by_op) {
    std::sort(kv.second.sizes.begin(), kv.second.sizes.end());
    plans->push_back(kv.second);
  }
  // Most frequent first: with a budget, what matters most is tuned first.
  std::stable_sort(plans->begin(), plans->end(),
                   [](const OpPlan& a, const OpPlan& b) { return a.profile_calls > b.profile_calls; });
  if (plans->empty()) *error = opt.profile + ": no call the tuner can measure on layout " + hiercoll::layout_text(layout);
  return !plans->empty();
}

}  // namespace

bool make_plans(const TuneOptions& opt, const hiercoll::LayoutKey& layout, std::vector<OpPlan>* plans,
                std::string* error) {
  plans->clear();
  if (!opt.profile.empty()) return plans_from_profile(opt, layout, plans, error);
  for (const std::string& name : opt.ops) {
    OpPlan p;
    p.op = hcbench::find_op(name);
    if (!p.op) {
      *error = "unknown operation " + name;
      return false;
    }
    p.sizes = p.op->sized ? opt.sizes : std::vector<int64_t>{0};
    plans->push_back(p);
  }
  return true;
}

}  // namespace hctune
