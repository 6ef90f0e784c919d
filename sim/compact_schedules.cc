#include "sim/compact_schedules.h"

#include <algorithm>

namespace hiercoll {

void CompactSchedules::add_rank(const Schedule& s) {
  const size_t n = s.steps.size();
  for (size_t i = 0; i < n; ++i) {
    const Step& st = s.steps[i];
    const bool message = st.kind == StepKind::kSend || st.kind == StepKind::kRecv;
    kind_.push_back(static_cast<uint8_t>(st.kind));
    peer_.push_back(message ? st.peer : -1);
    seq_.push_back(message ? st.seq : 0);
    units_.push_back(st.kind == StepKind::kRecv ? st.dst.n : st.src.n);
    for (int32_t k = s.succ_begin[i]; k < s.succ_begin[i + 1]; ++k) succ_.push_back(s.succ[k]);
    succ_begin_.push_back(succ_.size());
  }
  first_.push_back(first_.back() + static_cast<int64_t>(n));
}

CompactSchedules CompactSchedules::of(const std::vector<Schedule>& scheds) {
  CompactSchedules c;
  for (const Schedule& s : scheds) c.add_rank(s);
  c.shrink();
  return c;
}

void CompactSchedules::reserve(int64_t steps, int64_t succs) {
  const size_t n = static_cast<size_t>(steps);
  kind_.reserve(n);
  peer_.reserve(n);
  seq_.reserve(n);
  units_.reserve(n);
  succ_begin_.reserve(n + 1);
  succ_.reserve(static_cast<size_t>(succs));
}

void CompactSchedules::shrink() {
  first_.shrink_to_fit();
  kind_.shrink_to_fit();
  peer_.shrink_to_fit();
  seq_.shrink_to_fit();
  units_.shrink_to_fit();
  succ_begin_.shrink_to_fit();
  succ_.shrink_to_fit();
}

int CompactSchedules::rank_of(int64_t g) const {
  return static_cast<int>(std::upper_bound(first_.begin(), first_.end(), g) - first_.begin()) - 1;
}

}  // namespace hiercoll
