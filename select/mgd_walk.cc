#include "select/mgd_walk.h"

#include <algorithm>

namespace hiercoll {

std::vector<int64_t> MgdWalk::walk_order(std::vector<int64_t> segments) {
  if (segments.empty()) segments.push_back(0);
  // 0 (unsegmented) is the whole message: the largest segment of all.
  std::sort(segments.begin(), segments.end(), [](int64_t a, int64_t b) {
    if (a == 0 || b == 0) return a == 0 && b != 0;
    return a > b;
  });
  segments.erase(std::unique(segments.begin(), segments.end()), segments.end());
  return segments;
}

MgdWalk::MgdWalk(std::vector<int64_t> segments, int look_past)
    : order_(walk_order(std::move(segments))), look_past_(std::max(1, look_past)) {}

bool MgdWalk::finished() const {
  if (values_.size() >= order_.size()) return true;
  return steps() - 1 - best_ >= look_past_;
}

void MgdWalk::record(double us) {
  values_.push_back(us);
  if (us < values_[best_]) best_ = steps() - 1;
}

double MgdWalk::predicted_next() const {
  const double last = values_.back();
  if (steps() < 2 || finished() || values_[steps() - 2] <= 0) return last;
  return last * (last / values_[steps() - 2]);
}

}  // namespace hiercoll
