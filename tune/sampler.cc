#include "tune/sampler.h"

#include <algorithm>

#include "measure/sizes.h"
#include "runtime/stats.h"

namespace hctune {

using hiercoll::Method;

hcbench::ImplSpec method_spec(const hcbench::OpInfo& op, const Method& m, int64_t segment) {
  hcbench::ImplSpec spec;
  spec.name = hiercoll::method_text(m);
  spec.kind = m.kind == Method::kNative ? hcbench::ImplSpec::kNative
              : m.kind == Method::kFlat ? hcbench::ImplSpec::kFlat
                                        : hcbench::ImplSpec::kHier;
  spec.algorithm = m.name;  // the flat algorithm or the composition
  // No tuning file of the user's may decide for the method under test.
  spec.hints.emplace_back("hiercoll_tuning_file", "none");
  if (!m.inter.empty()) spec.hints.emplace_back(std::string("hiercoll_") + op.flat_op + "_inter_algorithm", m.inter);
  if (m.dynamic) spec.hints.emplace_back("hiercoll_dynamic", "depth");
  if (segment > 0) spec.hints.emplace_back("hiercoll_segment_bytes", std::to_string(segment));
  return spec;
}

Sampler::Sampler(MPI_Comm ctrl, const hcbench::OpInfo& op, int64_t bench_bytes, const std::vector<int>& roots,
                 hcbench::SyncClock* clock)
    : ctrl_(ctrl), op_(op), roots_(roots), clock_(clock) {
  PMPI_Comm_rank(ctrl_, &rank_);
  PMPI_Comm_size(ctrl_, &size_);
  buf_ = hcbench::make_buffers(op, bench_bytes, size_, rank_);  // v-variants: uniform blocks
  if (roots_.empty()) roots_.push_back(0);
}

Sampler::~Sampler() {
  for (auto& kv : slots_) hcbench::free_impls(&kv.second.impl);
}

Sampler::Slot& Sampler::slot(const std::string& method_name, int64_t segment) {
  auto key = std::make_pair(method_name, segment);
  auto it = slots_.find(key);
  if (it != slots_.end()) return it->second;
  Slot& s = slots_[key];
  std::string error;
  if (!hiercoll::parse_method(method_name, &s.method, &error)) {
    broken_.push_back(error);
    return s;
  }
  // The benchmark's implementations: the same communicator hints make
  // hiercoll run the method (or Open MPI's coll/tuned, for native).
  if (!hcbench::create_impls({method_spec(op_, s.method, segment)}, ctrl_, &s.impl, &error)) {
    broken_.push_back(method_name + ": " + error);
    return s;
  }
  s.comm = s.impl.front().comm;
  const std::string what = method_name + (segment > 0 ? " segment " + std::to_string(segment) : "");
  s.ok = warm_up(s, what);
  return s;
}

// One call on every root the samples will use, the first checked; then
// whether hiercoll ran the method asked for (no fallback).  Agreed by all.
bool Sampler::warm_up(Slot& s, const std::string& what) {
  const bool via_hiercoll = s.method.kind != Method::kNative;
  int ok = 1;
  std::string ran;
  hcbench::fill_for_check(op_, buf_, rank_, size_, roots_[0]);
  hcbench::call_op(op_, via_hiercoll, buf_, roots_[0], s.comm);
  if (!hcbench::verify(op_, buf_, rank_, size_, roots_[0])) ok = 0;
  if (via_hiercoll) {
    ran = hiercoll::last_algorithm();
    const std::string want = s.method.kind == Method::kFlat ? s.method.name : hiercoll::method_text(s.method);
    // Calls without data run nothing ("none"); the method is then moot.
    if (ran != want && ran != "none") ok = 0;
  }
  for (size_t i = 1; i < roots_.size() && i < 4; ++i) hcbench::call_op(op_, via_hiercoll, buf_, roots_[i], s.comm);
  int all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, ctrl_);
  if (!all && rank_ == 0) broken_.push_back(what + (ok ? ": failed on another rank" : ": wrong result or ran " + ran));
  return all != 0;
}

double Sampler::sample(const std::string& method_name, int64_t segment) {
  Slot& s = slot(method_name, segment);
  if (!s.ok) return kBrokenUs;
  const int root = roots_[s.samples++ % roots_.size()];
  const bool via_hiercoll = s.method.kind != Method::kNative;
  const double t0 = clock_->start();
  hcbench::call_op(op_, via_hiercoll, buf_, root, s.comm);
  double mine = (clock_->stop() - t0) * 1e6, slowest = 0;
  PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, ctrl_);
  return slowest;
}

}  // namespace hctune
