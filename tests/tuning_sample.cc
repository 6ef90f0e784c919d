#include "tests/tuning_sample.h"

#include <gtest/gtest.h>

#include <string>

namespace hiercoll::testing {

namespace {

Method method(Method::Kind kind, const std::string& name = "", const std::string& inter = "") {
  Method m;
  m.kind = kind;
  m.name = name;
  m.inter = inter;
  return m;
}

TunedRange range(int64_t from, int64_t to, const Method& m, int64_t segment, double us, bool measured) {
  TunedRange r;
  r.from_bytes = from;
  r.to_bytes = to;
  r.method = m;
  r.segment_bytes = segment;
  r.predicted_us = us;
  r.measured = measured;
  return r;
}

MachineFigures figures(double scale, const std::string& source) {
  MachineFigures m;
  m.inter_latency_us = 17.25 * scale;
  m.inter_bandwidth_gbps = 1.9 * scale;
  m.intra_latency_us = 0.4 * scale;
  m.intra_bandwidth_gbps = 4.1 * scale;
  m.reduce_gbps = 2.2 * scale;
  m.source = source;
  return m;
}

std::vector<TunedRange>& ranges(TuningEntry& e, Op op) { return e.ranges[static_cast<int>(op)]; }

TuningEntry slot_entry() {
  TuningEntry e;
  e.layout.ranks_per_node = {2, 2, 2, 2};
  e.layout.placement = "slot";
  e.machine = figures(1, "measured by hiercoll tune (ping-pong)");
  e.created = "2026-11-24T20:00:00Z";
  e.tool = "hiercoll tune --nodes 4 --ppn 2";
  ranges(e, Op::kAllreduce) = {
      range(0, 2048, method(Method::kHier, "allreduce"), 0, 41.5, true),
      range(2048, 1 << 20, method(Method::kHier, "allreduce_pipelined", "twotree"), 65536, 803.125, false),
      range(1 << 20, -1, method(Method::kFlat, "ring"), 0, 5120, true),
  };
  ranges(e, Op::kBcast) = {range(0, -1, method(Method::kNative), 0, 12, true)};
  ranges(e, Op::kBarrier) = {range(0, -1, method(Method::kFlat, "dissemination"), 0, 30, true)};
  return e;
}

TuningEntry round_robin_entry() {
  TuningEntry e;
  e.layout.ranks_per_node = {3, 1, 2};
  e.layout.placement = "node";
  e.machine = figures(0.5, "");
  ranges(e, Op::kScan) = {
      range(8, 64, method(Method::kFlat, "recursive_doubling"), 0, 20, true),
      range(4096, -1, method(Method::kFlat, "chain"), 16384, 900, false),
  };
  return e;
}

TuningEntry list_entry() {
  TuningEntry e;
  e.layout.ranks_per_node = {2, 2};
  e.layout.placement = "list";
  e.layout.node_of = {0, 1, 1, 0};
  e.machine = figures(2, "built-in");
  ranges(e, Op::kReduceScatter) = {range(0, -1, method(Method::kFlat, "pairwise"), 0, 77, true)};
  ranges(e, Op::kScatter) = {range(0, 100, method(Method::kNative), 0, 5, true)};
  return e;
}

void expect_same_machine(const MachineFigures& want, const MachineFigures& got, const std::string& where) {
  EXPECT_EQ(want.inter_latency_us, got.inter_latency_us) << where;
  EXPECT_EQ(want.inter_bandwidth_gbps, got.inter_bandwidth_gbps) << where;
  EXPECT_EQ(want.intra_latency_us, got.intra_latency_us) << where;
  EXPECT_EQ(want.intra_bandwidth_gbps, got.intra_bandwidth_gbps) << where;
  EXPECT_EQ(want.reduce_gbps, got.reduce_gbps) << where;
  EXPECT_EQ(want.source, got.source) << where;
}

void expect_same_range(const TunedRange& want, const TunedRange& got, const std::string& where) {
  EXPECT_EQ(want.from_bytes, got.from_bytes) << where;
  EXPECT_EQ(want.to_bytes, got.to_bytes) << where;
  EXPECT_EQ(method_text(want.method), method_text(got.method)) << where;
  EXPECT_TRUE(want.method == got.method) << where;
  EXPECT_EQ(want.segment_bytes, got.segment_bytes) << where;
  EXPECT_EQ(want.predicted_us, got.predicted_us) << where;
  EXPECT_EQ(want.measured, got.measured) << where;
}

void expect_same_entry(const TuningEntry& want, const TuningEntry& got, const std::string& where) {
  EXPECT_TRUE(want.layout == got.layout) << where << ": " << layout_text(want.layout) << " vs "
                                         << layout_text(got.layout);
  expect_same_machine(want.machine, got.machine, where + ".machine");
  EXPECT_EQ(want.created, got.created) << where;
  EXPECT_EQ(want.tool, got.tool) << where;
  for (int op = 0; op < kNumOps; ++op) {
    const std::string w = where + ".ops." + op_name(static_cast<Op>(op));
    ASSERT_EQ(want.ranges[op].size(), got.ranges[op].size()) << w;
    for (size_t r = 0; r < want.ranges[op].size(); ++r)
      expect_same_range(want.ranges[op][r], got.ranges[op][r], w + "[" + std::to_string(r) + "]");
  }
}

}  // namespace

TuningFile sample_tuning_file() {
  TuningFile f;
  f.entries = {slot_entry(), round_robin_entry(), list_entry()};
  return f;
}

void expect_same_file(const TuningFile& want, const TuningFile& got) {
  EXPECT_EQ(want.version, got.version);
  ASSERT_EQ(want.entries.size(), got.entries.size());
  for (size_t e = 0; e < want.entries.size(); ++e)
    expect_same_entry(want.entries[e], got.entries[e], "entries[" + std::to_string(e) + "]");
}

}  // namespace hiercoll::testing
