#include "tune/plan.h"

#include "bench/ops.h"

namespace hctune {

bool make_plans(const TuneOptions& opt, const hiercoll::LayoutKey& layout, std::vector<OpPlan>* plans,
                std::string* error) {
  plans->clear();
  (void)layout;
  if (!opt.profile.empty()) {
    *error = "--profile: not supported yet";
    return false;
  }
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
