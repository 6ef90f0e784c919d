#include "tune/tuner.h"

#include <algorithm>
#include <cmath>

#include "measure/calls.h"
#include "measure/roots.h"
#include "measure/sizes.h"
#include "tune/candidates.h"
#include "tune/guided.h"
#include "tune/sampler.h"

namespace hctune {

using hiercoll::Candidate;
using hiercoll::PointResult;

namespace {

// Thrown out of the search when the budget is spent (all ranks agree).
struct BudgetSpent {};

hiercoll::Op registry_op(const hcbench::OpInfo& op) {
  hiercoll::Op o = hiercoll::Op::kBcast;
  hiercoll::op_from_name(op.flat_op, &o);
  return o;
}

// Bytes of one unit of the call as hiercoll plans it: floats for
// reductions, bytes for bcast, one rank's block for block collectives.
int64_t unit_bytes(const hcbench::OpInfo& op, int64_t bytes) {
  switch (op.op) {
    case hcbench::BenchOp::kAllgather: case hcbench::BenchOp::kAlltoall: case hcbench::BenchOp::kGather:
    case hcbench::BenchOp::kScatter: return hcbench::effective_bytes(op, bytes);
    case hcbench::BenchOp::kBarrier: return 0;
    default: return op.reduction ? 4 : 1;
  }
}

hiercoll::SearchOptions search_options(const TuneOptions& o) {
  hiercoll::SearchOptions s;
  s.exhaustive = o.exhaustive;
  s.drop_ratio = o.drop_ratio;
  s.look_past = o.look_past;
  s.scan_steps = o.scan_steps;
  s.noise.min_samples = o.min_samples;
  s.noise.max_samples = o.max_samples;
  return s;
}

// The grid's ranges as the tuning file keeps them.
std::vector<hiercoll::TunedRange> file_ranges(const hiercoll::GridResult& g) {
  std::vector<hiercoll::TunedRange> out;
  for (const hiercoll::SizeRange& r : g.ranges) {
    hiercoll::TunedRange t;
    t.from_bytes = r.lo_bytes;
    t.to_bytes = r.hi_bytes == std::numeric_limits<int64_t>::max() ? -1 : r.hi_bytes;
    std::string error;
    hiercoll::parse_method(r.method, &t.method, &error);
    // A segment that is not below the sizes of the range is no segment.
    t.segment_bytes = r.segment > 0 && t.to_bytes > 0 && r.segment >= t.to_bytes ? 0 : r.segment;
    for (const hiercoll::SizeDecision& d : g.decisions)
      if (t.contains(d.bytes) && d.method == r.method) {
        t.predicted_us = d.predicted_us;
        t.measured = d.measured;
        break;
      }
    // Merge with the previous range when nothing changes.
    if (!out.empty() && out.back().method == t.method && out.back().segment_bytes == t.segment_bytes) {
      out.back().to_bytes = t.to_bytes;
      continue;
    }
    out.push_back(t);
  }
  return out;
}

// The grid with the geometric middle (a multiple of 4 bytes) between each
// pair of neighbours.  With a stride of 2 the search measures the given
// sizes first and a middle only where its neighbours' winners differ: a
// crossover that is a cliff rather than a slope (Open MPI's 64 KiB TCP
// eager limit multiplies a call's time there) is then placed from a
// measurement, not interpolated.
std::vector<int64_t> with_sizes_between(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) {
      const int64_t mid = std::llround(std::sqrt(static_cast<double>(sizes[i - 1]) * sizes[i]) / 4) * 4;
      if (mid > sizes[i - 1] && mid < sizes[i]) out.push_back(mid);
    }
    out.push_back(sizes[i]);
  }
  return out;
}

}  // namespace

std::string duration_text(double s) {
  char buf[32];
  const long t = std::lround(s);
  if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%.1fs", s);
  return buf;
}

Tuner::Tuner(MPI_Comm ctrl, const TuneOptions& opt, const hiercoll::Layout& layout, const hiercoll::Figures& figures,
             hcbench::SyncClock* clock, FILE* points_csv)
    : ctrl_(ctrl), opt_(opt), layout_(layout), figures_(figures), clock_(clock), points_csv_(points_csv) {
  PMPI_Comm_rank(ctrl_, &rank_);
  started_ = MPI_Wtime();
}

double Tuner::elapsed() const { return MPI_Wtime() - started_; }

void Tuner::say(const std::string& line) const {
  if (rank_ != 0) return;
  std::fprintf(stderr, "[tune %s] %s\n", duration_text(elapsed()).c_str(), line.c_str());
  std::fflush(stderr);
}

// Rank 0's clock decides, so every rank stops at the same point.
bool Tuner::budget_left() {
  int left = opt_.budget_minutes <= 0 || elapsed() < opt_.budget_minutes * 60;
  PMPI_Bcast(&left, 1, MPI_INT, 0, ctrl_);
  return left != 0;
}

PointResult Tuner::tune_point(const OpPlan& plan, int64_t bytes, const std::string& where) {
  const hcbench::OpInfo& op = *plan.op;
  if (!budget_left()) throw BudgetSpent{};
  const double t0 = MPI_Wtime();
  const int64_t eff = hcbench::effective_bytes(op, bytes);
  const std::vector<int> roots =
      op.rooted ? hcbench::choose_roots("sample", layout_.node_of) : std::vector<int>{0};
  clock_->resync();
  Sampler sampler(ctrl_, op, bytes, roots, clock_);
  std::vector<Candidate> cands;
  for (const TuneCandidate& c : candidates(registry_op(op), layout_, eff, unit_bytes(op, bytes), op.rooted))
    cands.push_back(Candidate{hiercoll::method_text(c.method), c.segments});
  cands = carried(cands, bytes);
  if (opt_.guided) cands = model_guided(cands, registry_op(op), layout_, figures_, bytes);
  auto measure = [&](const Candidate& c, int64_t seg) { return sampler.sample(c.name, seg); };
  auto progress = [&](const hiercoll::SearchProgress& p) {
    if (MPI_Wtime() - last_progress_ < 10) return;
    last_progress_ = MPI_Wtime();
    say(where + ": " + std::to_string(p.experiments_done) + " experiments, " + std::to_string(p.candidates_left) +
        " of " + std::to_string(cands.size()) + " methods left, at most " + std::to_string(p.experiments_left_at_most) +
        " experiments to go");
  };
  PointResult r = hiercoll::search_point(cands, measure, search_options(opt_), progress);
  measured_[bytes] = r;
  for (const std::string& b : sampler.broken()) broken_.push_back(op.name + std::string(" ") + hcbench::format_size(bytes) + ": " + b);
  if (points_csv_)
    for (const hiercoll::Measured& m : r.per_method)
      std::fprintf(points_csv_, "%s,%lld,%s,%lld,%.2f,%.2f,%.2f,%d,%d\n", op.name, static_cast<long long>(eff),
                   m.method.c_str(), static_cast<long long>(m.segment), m.median_us, m.lo_us, m.hi_us, m.samples,
                   m.method == r.best.method && m.segment == r.best.segment);
  ++points_done_;
  const double per_point = elapsed() / std::max(1, points_done_);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s: %s%s %.1f us [%.1f-%.1f]; %d experiments, %d samples, %.1f s; about %s left",
                where.c_str(), r.best.method.c_str(),
                r.best.segment > 0 ? (" segment " + hcbench::format_size(r.best.segment)).c_str() : "",
                r.best.median_us, r.best.lo_us, r.best.hi_us, r.experiments, r.samples, MPI_Wtime() - t0,
                duration_text(per_point * std::max(0, points_planned_ - points_done_)).c_str());
  say(buf);
  return r;
}

// What the operation's nearest measured size (the nearest smaller one,
// else the nearest larger) says about the candidates here: costs move
// smoothly with the size, so
//  - a method carry_ratio times slower there does not win here: skipped
//    (native and methods that were not candidates there stay);
//  - a segmented method's best segment there, scaled by the square root of
//    the size ratio (the pipeline optimum grows as sqrt(m), two-tree paper
//    Sect. 2), is near its best here: only segment_window octaves around
//    it are walked, instead of every power of two from the message down.
std::vector<Candidate> Tuner::carried(const std::vector<Candidate>& all, int64_t bytes) const {
  if (opt_.exhaustive || measured_.empty()) return all;
  auto near = measured_.lower_bound(bytes);
  if (near == measured_.begin()) {
    if (near->first == bytes) return all;
  } else {
    --near;
  }
  const PointResult& there = near->second;
  const double scale = std::sqrt(static_cast<double>(bytes) / std::max<int64_t>(1, near->first));
  std::vector<Candidate> kept;
  for (Candidate c : all) {
    auto m = std::find_if(there.per_method.begin(), there.per_method.end(),
                          [&](const hiercoll::Measured& x) { return x.method == c.name; });
    const bool seen = m != there.per_method.end() && m->samples > 0;
    if (seen && opt_.carry_ratio > 0 && c.name != "native" && m->median_us > opt_.carry_ratio * there.best.median_us)
      continue;
    if (seen && opt_.segment_window > 0 && m->segment > 0 && c.segments.size() > 1) {
      const double hint = m->segment * scale;
      const double span = std::ldexp(1.0, opt_.segment_window) * 1.01;
      std::vector<int64_t> window;
      for (int64_t seg : c.segments)
        if (seg > 0 && seg <= hint * span && seg * span >= hint) window.push_back(seg);
      if (!window.empty()) c.segments = window;
    }
    kept.push_back(c);
  }
  return kept;
}

hiercoll::GridResult Tuner::search_op(const OpPlan& plan, const std::string& op_tag, int* op_planned) {
  if (!plan.op->sized) {
    // One point: barrier has no size.
    const PointResult r = tune_point(plan, 0, op_tag);
    hiercoll::GridResult grid;
    grid.points.push_back({0, r});
    grid.decisions.push_back({0, r.best.method, r.best.segment, r.best.median_us, true});
    grid.ranges.push_back({0, std::numeric_limits<int64_t>::max(), r.best.method, r.best.segment});
    grid.experiments = r.experiments;
    grid.samples = r.samples;
    grid.points_measured = 1;
    return grid;
  }
  hiercoll::GridOptions g;
  g.exhaustive = opt_.exhaustive;
  g.coarse_stride = opt_.stride;
  std::vector<int64_t> eff;
  for (int64_t b : plan.sizes) eff.push_back(hcbench::effective_bytes(*plan.op, b));
  eff.erase(std::unique(eff.begin(), eff.end()), eff.end());
  if (opt_.between > 0 && g.coarse_stride == 2 && !opt_.exhaustive) eff = with_sizes_between(eff);
  return hiercoll::search_sizes(
      eff, [&](int64_t bytes) { return tune_point(plan, bytes, op_tag + " " + hcbench::format_size(bytes)); }, g,
      [&](int64_t, int, int total_planned) {
        points_planned_ += total_planned - *op_planned;
        *op_planned = total_planned;
      });
}

OpOutcome Tuner::tune(const OpPlan& plan, int index, int total) {
  OpOutcome out;
  measured_.clear();
  out.op = plan.op->name;
  const double t0 = MPI_Wtime();
  // Planned points: every size exhaustively, else about the coarse set
  // plus refinement (the estimate of what remains is refined as points end).
  const int n = static_cast<int>(plan.sizes.size());
  const int planned = !plan.op->sized ? 1 : opt_.exhaustive ? n : std::min(n, n / std::max(1, opt_.stride) + 3);
  if (index == 0) points_planned_ = planned * total;
  const std::string op_tag = std::string(plan.op->name) + " (op " + std::to_string(index + 1) + "/" +
                             std::to_string(total) + ")";
  int op_planned = planned;
  try {
    out.grid = search_op(plan, op_tag, &op_planned);
  } catch (const BudgetSpent&) {
    say(std::string(plan.op->name) + ": budget spent, not tuned (the built-in rules stay for it)");
    points_planned_ -= op_planned;
    return out;
  }
  out.ranges = file_ranges(out.grid);
  out.broken = broken_;
  broken_.clear();
  out.tuned = true;
  out.seconds = MPI_Wtime() - t0;
  return out;
}

}  // namespace hctune
