#include "tune/model_entry.h"

#include <algorithm>

#include "decide/decide.h"
#include "decide/model_call.h"

namespace hctune {

using namespace hiercoll;

namespace {

// The ranges of one operation: a decision per size class.
std::vector<TunedRange> model_ranges(const DecideInput& in, Op op, int64_t min_bytes, int64_t max_bytes) {
  std::vector<TunedRange> out;
  // Barrier has one size, 0 bytes.
  const int first = op == Op::kBarrier ? 0 : size_class(std::max<int64_t>(min_bytes, 0));
  const int last = op == Op::kBarrier ? 0 : size_class(std::max(min_bytes, max_bytes));
  for (int c = first; c <= last; ++c) {
    const int64_t bytes = class_bytes(c);
    const Decision d = decide_class(in, op, bytes, true);
    const Costed& chosen = d.chosen();
    if (!out.empty() && out.back().method == chosen.candidate.method &&
        out.back().segment_bytes == chosen.candidate.segment_bytes) {
      out.back().to_bytes = c + 1 < kSizeClasses ? class_bytes(c + 1) : -1;
      continue;
    }
    TunedRange r;
    r.from_bytes = out.empty() ? 0 : bytes;
    r.to_bytes = c + 1 < kSizeClasses ? class_bytes(c + 1) : -1;
    r.method = chosen.candidate.method;
    r.segment_bytes = chosen.candidate.segment_bytes;
    r.predicted_us = std::max(0.0, chosen.us);
    r.measured = false;
    out.push_back(r);
  }
  if (!out.empty()) out.back().to_bytes = -1;
  return out;
}

}  // namespace

TuningEntry model_entry(const ModelEntryRequest& r) {
  TuningEntry e;
  e.layout = layout_key(*r.layout);
  // The ping-pong figures a measured entry has, here the model's own.
  const CostModel& m = r.figures.model;
  e.machine.inter_latency_us = m.alpha_us;
  e.machine.inter_bandwidth_gbps = m.bandwidth_gbps;
  e.machine.intra_latency_us = m.shm_alpha_us;
  e.machine.intra_bandwidth_gbps = m.shm_bandwidth_gbps;
  e.machine.reduce_gbps = m.reduce_gbps;
  e.machine.source = "the model's figures (not measured): " + r.figures.source;
  e.has_model = true;
  e.model = m;
  e.model_source = r.figures.source;
  // Decided as the runtime decides with this entry: its figures, its
  // machine figures for the default segments.
  const LayoutFacts facts = layout_facts(*r.layout);
  DecideInput in;
  in.layout = r.layout;
  in.facts = &facts;
  in.figures = &r.figures;
  in.scope.hier = true;
  in.scope.machine = &e.machine;
  in.tuning = &e;  // its machine figures, as the runtime's (its ranges: not looked up)
  in.file_ranges = false;
  for (Op op : r.ops) e.ranges[static_cast<int>(op)] = model_ranges(in, op, r.min_bytes, r.max_bytes);
  return e;
}

}  // namespace hctune
