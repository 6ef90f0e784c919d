// MGD for one method: the walk over its segment sizes from the largest
// down (unsegmented, 0, counts as the largest), which goes on past a
// minimum for `look_past` more sizes, since the time-vs-segment curves
// have several local minima, and ends when they all rose (or at the
// smallest size). It also predicts the next value from the last gradient,
// which orders and prunes methods in SMGD.
#pragma once

#include <cstdint>
#include <vector>

namespace hiercoll {

class MgdWalk {
 public:
  MgdWalk(std::vector<int64_t> segments, int look_past);

  bool finished() const;
  int64_t next_segment() const { return order_[values_.size()]; }
  // The median time measured at next_segment(); advances the walk.
  void record(double us);

  int steps() const { return static_cast<int>(values_.size()); }
  int sizes() const { return static_cast<int>(order_.size()); }
  double best() const { return values_[best_]; }  // needs steps() > 0
  // The next value if the last ratio of successive values holds (the last
  // value itself after one step, or when the walk is finished).
  double predicted_next() const;

  // Segment sizes in walk order: 0 first, then descending, distinct.
  static std::vector<int64_t> walk_order(std::vector<int64_t> segments);

 private:
  std::vector<int64_t> order_;
  std::vector<double> values_;
  int best_ = 0;
  int look_past_;
};

}  // namespace hiercoll
