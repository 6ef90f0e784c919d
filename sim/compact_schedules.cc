#include "sim/compact_schedules.h"

#include <algorithm>
#include <limits>

namespace hiercoll {

void CompactSchedules::add_rank(const Schedule& s) {
  const size_t n = s.steps.size();
  steps_.pop_back();  // the end record, appended again below
  for (size_t i = 0; i < n; ++i) {
    const Step& st = s.steps[i];
    const bool message = st.kind == StepKind::kSend || st.kind == StepKind::kRecv;
    const int64_t units = st.kind == StepKind::kRecv ? st.dst.n : st.src.n;
    too_many_units_ |= units > std::numeric_limits<int32_t>::max();
    steps_.push_back(StepRecord{message ? st.peer : -1, static_cast<int32_t>(units),
                                static_cast<uint32_t>(succ_.size()), static_cast<uint8_t>(st.kind)});
    seq_.push_back(message ? st.seq : 0);
    for (int32_t k = s.succ_begin[i]; k < s.succ_begin[i + 1]; ++k) succ_.push_back(s.succ[k]);
  }
  steps_.push_back(StepRecord{-1, 0, static_cast<uint32_t>(succ_.size()), 0});
  first_.push_back(first_.back() + static_cast<int64_t>(n));
}

bool CompactSchedules::fits(std::string* error) const {
  if (too_many_units_) {
    *error = "a step of 2^31 units or more (the simulator counts a message's units in 32 bits, as MPI does)";
    return false;
  }
  if (succ_.size() > std::numeric_limits<uint32_t>::max()) {
    *error = "too many dependencies (" + std::to_string(succ_.size()) + "; at most 2^32)";
    return false;
  }
  return true;
}

CompactSchedules CompactSchedules::of(const std::vector<Schedule>& scheds) {
  CompactSchedules c;
  for (const Schedule& s : scheds) c.add_rank(s);
  c.shrink();
  return c;
}

void CompactSchedules::reserve(int64_t steps, int64_t succs) {
  const size_t n = static_cast<size_t>(steps);
  steps_.reserve(n + 1);
  seq_.reserve(n);
  succ_.reserve(static_cast<size_t>(succs));
}

void CompactSchedules::shrink() {
  first_.shrink_to_fit();
  steps_.shrink_to_fit();
  seq_.shrink_to_fit();
  succ_.shrink_to_fit();
}

int CompactSchedules::rank_of(int64_t g) const {
  return static_cast<int>(std::upper_bound(first_.begin(), first_.end(), g) - first_.begin()) - 1;
}

}  // namespace hiercoll
