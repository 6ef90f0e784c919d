#include "select/search.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "select/mgd_walk.h"
#include "select/point_sampler.h"

namespace hiercoll {
namespace {

struct WalkState {
  MgdWalk walk;
  bool dropped = false;
  bool in_play() const { return !dropped && !walk.finished(); }
};

// The threshold rule of SMGD. A method is judged only once its gradient is
// known (`scan_steps` sizes measured, or all it has): a pipelined method is
// often far behind at its largest segment and overtakes further down, which
// the absolute values alone would miss (the paper's "results that
// interchanged rapidly").
bool should_drop(const WalkState& c, double best_of_all, const SearchOptions& opt) {
  const int known = std::min(std::max(1, opt.scan_steps), c.walk.sizes());
  if (!c.in_play() || c.walk.steps() < known) {
    return false;
  }
  const double limit = (1 + opt.drop_ratio) * best_of_all;
  return c.walk.best() > limit && c.walk.predicted_next() > limit;
}

// SMGD's order: first the scan (methods with fewer than `scan_steps` sizes
// measured, unmeasured ones first, in the given order), then the method
// whose predicted next value is lowest; -1 when none is left.
int next_method(const std::vector<WalkState>& cands, const SearchOptions& opt) {
  int pick = -1;
  std::tuple<int, double, int> pick_key;
  for (int m = 0; m < static_cast<int>(cands.size()); ++m) {
    const MgdWalk& w = cands[m].walk;
    if (!cands[m].in_play()) continue;
    const double value = w.steps() == 0 ? -std::numeric_limits<double>::infinity()
                                        : w.predicted_next();
    const std::tuple<int, double, int> key{w.steps() < opt.scan_steps ? 0 : 1, value, m};
    if (pick < 0 || key < pick_key) {
      pick = m;
      pick_key = key;
    }
  }
  return pick;
}

class Search {
 public:
  Search(const std::vector<Candidate>& methods, const MeasureFn& measure,
         const SearchOptions& opt,
         const std::function<void(const SearchProgress&)>& progress)
      : methods_(methods), opt_(opt), progress_(progress),
        sampler_(methods, measure, opt.noise) {
    for (const Candidate& m : methods) cands_.push_back(WalkState{MgdWalk(m.segments, opt.look_past)});
  }

  void run_exhaustive() {
    for (int m = 0; m < static_cast<int>(methods_.size()); ++m) {
      for (int64_t seg : MgdWalk::walk_order(methods_[m].segments)) measure(m, seg);
    }
  }

  void run_smgd() {
    for (int m; (m = next_method(cands_, opt_)) >= 0;) {
      measure(m, cands_[m].walk.next_segment());
      const double best_of_all = sampler_.summary(sampler_.best_point()).median;
      for (int d = 0; d < static_cast<int>(cands_.size()); ++d) {
        if (!should_drop(cands_[d], best_of_all, opt_)) continue;
        cands_[d].dropped = true;
        dropped_.push_back(methods_[d].name);
      }
    }
  }

  PointResult result() const {
    PointResult r;
    r.best = sampler_.measured(sampler_.best_point());
    for (int m = 0; m < static_cast<int>(methods_.size()); ++m) {
      const int p = sampler_.best_point_of(m);
      if (p >= 0) r.per_method.push_back(sampler_.measured(p));
    }
    r.dropped = dropped_;
    r.experiments = sampler_.points();
    r.samples = sampler_.samples();
    r.measured_us = sampler_.total_us();
    return r;
  }

 private:
  void measure(int m, int64_t segment) {
    const int p = sampler_.measure(m, segment);
    cands_[m].walk.record(sampler_.summary(p).median);
    if (!progress_) return;
    SearchProgress s;
    s.experiments_done = sampler_.points();
    for (const WalkState& c : cands_) {
      s.candidates_left += !c.dropped;
      s.searching += c.in_play();
      if (c.in_play()) s.experiments_left_at_most += c.walk.sizes() - c.walk.steps();
    }
    progress_(s);
  }

  const std::vector<Candidate>& methods_;
  const SearchOptions& opt_;
  const std::function<void(const SearchProgress&)>& progress_;
  PointSampler sampler_;
  std::vector<WalkState> cands_;
  std::vector<std::string> dropped_;
};

}  // namespace

PointResult search_point(const std::vector<Candidate>& methods, const MeasureFn& measure,
                         const SearchOptions& opt,
                         const std::function<void(const SearchProgress&)>& progress) {
  if (methods.empty()) throw std::invalid_argument("search_point: no methods");
  Search s(methods, measure, opt, progress);
  if (opt.exhaustive) {
    s.run_exhaustive();
  } else {
    s.run_smgd();
  }
  return s.result();
}

}  // namespace hiercoll
