// One tuning run over a job: for each operation, the pruned (or
// exhaustive) search over methods and segment sizes at the sizes of its
// grid, then size ranges for the tuning file.  Collective over ctrl.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "decide/figures.h"
#include "measure/clock.h"
#include "measure/ops.h"
#include "select/size_grid.h"
#include "select/tuning_file.h"
#include "tune/options.h"

namespace hctune {

struct OpPlan {
  const hcbench::OpInfo* op = nullptr;
  std::vector<int64_t> sizes;  // the benchmark's sizes
  long profile_calls = 0;      // from a profile: how often the application called it
};

struct OpOutcome {
  std::string op;
  bool tuned = false;                     // false: the budget ran out first
  hiercoll::GridResult grid;
  std::vector<hiercoll::TunedRange> ranges;
  std::vector<std::string> broken;        // methods that failed their warm-up
  double seconds = 0;
};

class Tuner {
 public:
  // `figures`: the model's figures guiding --guided (the process's,
  // runtime/figures_probe.h).
  Tuner(MPI_Comm ctrl, const TuneOptions& opt, const hiercoll::Layout& layout, const hiercoll::Figures& figures,
        hcbench::SyncClock* clock, FILE* points_csv);
  // Tunes one operation; `index` / `total` for the progress lines.
  OpOutcome tune(const OpPlan& plan, int index, int total);

 private:
  // The search over the operation's sizes (one point for barrier); throws
  // BudgetSpent when the budget runs out.  *op_planned: points planned.
  hiercoll::GridResult search_op(const OpPlan& plan, const std::string& op_tag, int* op_planned);
  hiercoll::PointResult tune_point(const OpPlan& plan, int64_t bytes, const std::string& where);
  // The candidates still worth measuring at `bytes`, and the segments to
  // walk, given the operation's points measured so far (tuner.cc).
  std::vector<hiercoll::Candidate> carried(const std::vector<hiercoll::Candidate>& all, int64_t bytes) const;
  bool budget_left();
  double elapsed() const;
  void say(const std::string& line) const;

  MPI_Comm ctrl_;
  const TuneOptions& opt_;
  const hiercoll::Layout& layout_;
  hiercoll::Figures figures_;
  hcbench::SyncClock* clock_;
  FILE* points_csv_;
  int rank_ = 0;
  double started_ = 0;
  double last_progress_ = 0;
  int points_done_ = 0;
  int points_planned_ = 0;  // over all operations, as estimated so far
  std::vector<std::string> broken_;
  std::map<int64_t, hiercoll::PointResult> measured_;  // this operation's points so far
};

// "1m05s"
std::string duration_text(double seconds);

}  // namespace hctune
