// The model's figures in files (select/model_figures_json.h): carried by a
// tuning file's entry and by a figures file, both ways, bad values refused
// with their key; which entry's figures a layout decides by; and
// `tune --model`'s entry (tune/model_entry.h): the model's decision at
// every size class, which the file then gives back as its own; the
// figures a start-up probe's times make (decide/figures.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "decide/decide.h"
#include "decide/figures.h"
#include "decide/model_call.h"
#include "select/model_figures_json.h"
#include "select/tuning_file.h"
#include "sim/sweep.h"
#include "tune/model_entry.h"

namespace hiercoll {
namespace {

std::string tmp(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

CostModel unusual() {
  CostModel m;
  m.alpha_us = 31.25;
  m.bandwidth_gbps = 0.375;
  m.shm_alpha_us = 1.5;
  m.shm_bandwidth_gbps = 3.25;
  m.reduce_gbps = 4.5;
  m.burst_bytes = 32768;
  m.latency_overlaps = true;
  m.cores = 3;
  m.cores_shared_by_all = true;
  m.message_cpu_us = 7.5;
  m.eager_limit = 12288;
  m.shm_eager_limit = 2048;
  m.simplex = true;
  return m;
}

void expect_same(const CostModel& a, const CostModel& b) {
  EXPECT_EQ(a.alpha_us, b.alpha_us);
  EXPECT_EQ(a.bandwidth_gbps, b.bandwidth_gbps);
  EXPECT_EQ(a.shm_alpha_us, b.shm_alpha_us);
  EXPECT_EQ(a.shm_bandwidth_gbps, b.shm_bandwidth_gbps);
  EXPECT_EQ(a.reduce_gbps, b.reduce_gbps);
  EXPECT_EQ(a.burst_bytes, b.burst_bytes);
  EXPECT_EQ(a.latency_overlaps, b.latency_overlaps);
  EXPECT_EQ(a.cores, b.cores);
  EXPECT_EQ(a.cores_shared_by_all, b.cores_shared_by_all);
  EXPECT_EQ(a.message_cpu_us, b.message_cpu_us);
  EXPECT_EQ(a.eager_limit, b.eager_limit);
  EXPECT_EQ(a.shm_eager_limit, b.shm_eager_limit);
  EXPECT_EQ(a.simplex, b.simplex);
}

TuningEntry entry_of(const LayoutKey& k) {
  TuningEntry e;
  e.layout = k;
  e.machine = {20, 1, 1, 5, 5, "test"};
  return e;
}

TEST(ModelFigures, CarriedByATuningFilesEntry) {
  TuningFile f;
  TuningEntry e = entry_of(layout_key(layout_of({2, 2}, "slot")));
  e.has_model = true;
  e.model = unusual();
  e.model_source = "fitted to a run";
  f.entries = {entry_of(layout_key(layout_of({3, 1}, "node"))), e};
  TuningFile back;
  std::string error;
  ASSERT_TRUE(parse_tuning_text(tuning_to_text(f), "t.json", &back, &error)) << error;
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_FALSE(back.entries[0].has_model);
  ASSERT_TRUE(back.entries[1].has_model);
  expect_same(back.entries[1].model, unusual());
  EXPECT_EQ(back.entries[1].model_source, "fitted to a run");
}

TEST(ModelFigures, FiguresFileBothWaysAndFromATuningFile) {
  const std::string path = tmp("figures.json");
  std::string error, source;
  ASSERT_TRUE(save_figures_file(path, unusual(), "calibrated", &error)) << error;
  CostModel m;
  ASSERT_TRUE(load_figures_file(path, &m, &source, &error)) << error;
  expect_same(m, unusual());
  EXPECT_NE(source.find("calibrated"), std::string::npos);
  EXPECT_NE(source.find(path), std::string::npos);

  // A tuning file: its first entry that carries figures.
  TuningFile f;
  TuningEntry e = entry_of(layout_key(layout_of({2, 2}, "slot")));
  e.has_model = true;
  e.model = unusual();
  f.entries = {entry_of(layout_key(layout_of({3, 1}, "node"))), e};
  const std::string tuning = tmp("tuning_with_figures.json");
  ASSERT_TRUE(save_tuning_file(tuning, f, &error)) << error;
  CostModel from_tuning;
  ASSERT_TRUE(load_figures_file(tuning, &from_tuning, &source, &error)) << error;
  expect_same(from_tuning, unusual());
  EXPECT_NE(source.find("2x2 slot"), std::string::npos) << source;
  // ... and none: said.
  f.entries.pop_back();
  ASSERT_TRUE(save_tuning_file(tuning, f, &error)) << error;
  EXPECT_FALSE(load_figures_file(tuning, &from_tuning, &source, &error));
  EXPECT_NE(error.find("no entry carries model figures"), std::string::npos) << error;
}

TEST(ModelFigures, BadFiguresAreRefusedWithTheirKey) {
  const std::string good = model_figures_json(unusual(), "x").dump();
  struct Bad {
    std::string text;
    std::string says;
  };
  auto with = [&](const std::string& key, const nlohmann::json& v) {
    nlohmann::json j = nlohmann::json::parse(good);
    if (v.is_null()) j.erase(key);
    else j[key] = v;
    return std::string(R"({"format": "hiercoll-figures", "version": 1, "model": )") + j.dump() + "}";
  };
  const Bad bad[] = {
      {with("alpha_us", -1), "alpha_us"},
      {with("bandwidth_gbps", 0), "bandwidth_gbps"},
      {with("reduce_gbps", "fast"), "reduce_gbps"},
      {with("latency_overlaps", 1), "latency_overlaps"},
      {with("cores", -2), "cores"},
      {with("eager_limit", nullptr), "eager_limit"},
      {R"({"format": "hiercoll-figures", "version": 1})", "model"},
      {R"({"format": "hiercoll-figures", "version": 7, "model": {}})", "version"},
      {R"({"format": "something", "version": 1, "model": {}})", "format"},
      {"{not json", "figures_bad.json"},
  };
  for (const Bad& b : bad) {
    const std::string path = tmp("figures_bad.json");
    write(path, b.text);
    CostModel m;
    std::string source, error;
    EXPECT_FALSE(load_figures_file(path, &m, &source, &error)) << b.text;
    EXPECT_NE(error.find(b.says), std::string::npos) << b.text << " -> " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  CostModel m;
  std::string source, error;
  EXPECT_FALSE(load_figures_file(tmp("no_such_figures.json"), &m, &source, &error));
  EXPECT_NE(error.find("cannot be read"), std::string::npos) << error;
}

TEST(ModelFigures, ALayoutDecidesByItsEntrysElseTheFirstCarrier) {
  const LayoutKey a = layout_key(layout_of({2, 2}, "slot"));
  const LayoutKey b = layout_key(layout_of({3, 1}, "node"));
  const LayoutKey c = layout_key(layout_of({4}, "slot"));
  TuningFile f;
  EXPECT_EQ(figures_entry(f, a), nullptr);
  f.entries = {entry_of(a), entry_of(b), entry_of(c)};
  EXPECT_EQ(figures_entry(f, a), nullptr);
  f.entries[1].has_model = true;
  f.entries[2].has_model = true;
  EXPECT_EQ(figures_entry(f, a), &f.entries[1]);  // a carries none: the first that does
  EXPECT_EQ(figures_entry(f, b), &f.entries[1]);
  EXPECT_EQ(figures_entry(f, c), &f.entries[2]);  // its own
  EXPECT_EQ(figures_entry(f, layout_key(layout_of({5}, "slot"))), &f.entries[1]);  // no entry at all
}

// Every class from 8 B to 1 MiB: the entry's range holding the class's
// size names the model's decision there; the ranges cover every size.
ProbeTimes probe_of(double inter_alpha, double inter_gbps, double intra_alpha, double intra_gbps) {
  ProbeTimes t;
  t.inter.large_bytes = t.intra.large_bytes = 262144;
  // One-way times of 8 bytes and of the large message: alpha + bytes / rate.
  t.inter.small_us = inter_alpha + 8 / (inter_gbps * 1e3);
  t.inter.large_us = inter_alpha + 262144 / (inter_gbps * 1e3);
  t.intra.small_us = intra_alpha + 8 / (intra_gbps * 1e3);
  t.intra.large_us = intra_alpha + 262144 / (intra_gbps * 1e3);
  t.reduce_bytes = 262144;
  t.reduce_us = 262144 / (3.0 * 1e3);  // 3 GB/s
  t.cpus = 16;
  t.max_ranks_per_machine = 8;
  t.machines = 4;
  t.nodes = 4;
  return t;
}

TEST(FiguresFromProbe, EachLevelsLatencyAndBandwidth) {
  const Figures f = figures_from_probe(probe_of(17, 0.25, 2, 9), builtin_figures());
  EXPECT_NEAR(f.model.alpha_us, 17 + 8 / 250.0, 1e-9);
  EXPECT_NEAR(f.model.bandwidth_gbps, 0.25, 1e-9);
  EXPECT_NEAR(f.model.shm_alpha_us, 2 + 8 / 9000.0, 1e-9);
  EXPECT_NEAR(f.model.shm_bandwidth_gbps, 9, 1e-9);
  EXPECT_NEAR(f.model.reduce_gbps, 3, 1e-9);
  EXPECT_EQ(check_cost_model(f.model), "");
  // Fewer ranks than CPUs: the papers' model (a core per rank), nothing
  // the probe cannot see.
  EXPECT_EQ(f.model.cores, 0);
  EXPECT_EQ(f.model.burst_bytes, 0);
  EXPECT_EQ(f.model.eager_limit, 0);
  EXPECT_EQ(f.model.message_cpu_us, 0);
  EXPECT_EQ(f.source.rfind("probe (", 0), 0u) << f.source;
}

TEST(FiguresFromProbe, ALevelNotMeasuredKeepsTheFallbacks) {
  ProbeTimes t = probe_of(17, 0.25, 2, 9);
  t.inter = ProbeTimes::Level{};  // one node
  Figures fallback;
  fallback.model = unusual();
  fallback.source = "fallback";
  Figures f = figures_from_probe(t, fallback);
  EXPECT_EQ(f.model.alpha_us, fallback.model.alpha_us);
  EXPECT_EQ(f.model.bandwidth_gbps, fallback.model.bandwidth_gbps);
  EXPECT_NEAR(f.model.shm_bandwidth_gbps, 9, 1e-9);
  EXPECT_NE(f.source.find("inter-node as fallback"), std::string::npos) << f.source;
  // A large message no slower than the small one says nothing of
  // bandwidth: the fastest round trips stand in for the medians, or,
  // saying nothing either, the fallback's figures.
  t = probe_of(17, 0.25, 2, 9);
  t.intra.small_fastest_us = 3, t.intra.large_fastest_us = 3 + 262136 / 4000.0;  // 4 GB/s
  t.intra.large_us = t.intra.small_us;
  f = figures_from_probe(t, fallback);
  EXPECT_NEAR(f.model.shm_alpha_us, 3, 1e-9);
  EXPECT_NEAR(f.model.shm_bandwidth_gbps, 4, 1e-9);
  EXPECT_NE(f.source.find("(fastest round trips)"), std::string::npos) << f.source;
  t.intra.large_fastest_us = 3;
  t.reduce_us = -1;
  f = figures_from_probe(t, fallback);
  EXPECT_EQ(f.model.shm_alpha_us, fallback.model.shm_alpha_us);
  EXPECT_EQ(f.model.shm_bandwidth_gbps, fallback.model.shm_bandwidth_gbps);
  EXPECT_EQ(f.model.reduce_gbps, fallback.model.reduce_gbps);
}

TEST(FiguresFromProbe, RanksBeyondTheCpusShareThem) {
  ProbeTimes t = probe_of(17, 0.25, 2, 9);
  t.cpus = 2;
  t.max_ranks_per_machine = 8;
  t.machines = 1;  // every node on one machine, as the emulated cluster
  Figures f = figures_from_probe(t, builtin_figures());
  EXPECT_EQ(f.model.cores, 2);
  EXPECT_TRUE(f.model.cores_shared_by_all);
  t.machines = 4;  // a machine per node, each running more ranks than CPUs
  t.max_ranks_per_machine = 4;
  f = figures_from_probe(t, builtin_figures());
  EXPECT_EQ(f.model.cores, 2);
  EXPECT_FALSE(f.model.cores_shared_by_all);
}

TEST(ModelEntry, TheModelsDecisionAtEverySizeClass) {
  const Layout L = layout_of({3, 1, 2}, "node");
  for (const CostModel& model : {builtin_figures().model, unusual()}) {
    hctune::ModelEntryRequest r;
    r.layout = &L;
    r.figures = Figures{model, "test"};
    r.ops = {Op::kBcast, Op::kAllreduce, Op::kAllgather, Op::kBarrier};
    r.min_bytes = 8;
    r.max_bytes = 1 << 20;
    const TuningEntry e = hctune::model_entry(r);
    EXPECT_TRUE(e.has_model);
    expect_same(e.model, model);
    EXPECT_EQ(e.layout, layout_key(L));
    const LayoutFacts F = layout_facts(L);
    DecideInput in;
    in.layout = &L;
    in.facts = &F;
    in.figures = &r.figures;
    in.tuning = &e;
    in.scope.machine = &e.machine;
    in.file_ranges = false;
    for (Op op : r.ops) {
      const std::vector<TunedRange>& ranges = e.ranges[static_cast<int>(op)];
      ASSERT_FALSE(ranges.empty()) << op_name(op);
      EXPECT_EQ(ranges.front().from_bytes, 0);
      EXPECT_EQ(ranges.back().to_bytes, -1);
      for (size_t i = 1; i < ranges.size(); ++i) {
        EXPECT_EQ(ranges[i].from_bytes, ranges[i - 1].to_bytes);
        EXPECT_FALSE(ranges[i].method == ranges[i - 1].method &&
                     ranges[i].segment_bytes == ranges[i - 1].segment_bytes)
            << "neighbours alike are one range";
      }
      const int last = op == Op::kBarrier ? 0 : size_class(r.max_bytes);
      for (int c = op == Op::kBarrier ? 0 : size_class(r.min_bytes); c <= last; ++c) {
        const int64_t bytes = class_bytes(c);
        const Decision d = decide_class(in, op, bytes, true);
        const TunedRange* got = find_range(e, op, bytes);
        ASSERT_NE(got, nullptr);
        EXPECT_EQ(method_text(got->method), method_text(d.chosen().candidate.method)) << op_name(op) << " " << bytes;
        EXPECT_EQ(got->segment_bytes, d.chosen().candidate.segment_bytes) << op_name(op) << " " << bytes;
        EXPECT_FALSE(got->measured);
      }
      // The file decides as the model did: its range, source file.
      DecideInput with_file = in;
      with_file.file_ranges = true;
      const Decision d = decide_class(with_file, op, op == Op::kBarrier ? 0 : 4096, true);
      EXPECT_EQ(d.source, Source::kFile) << op_name(op);
    }
  }
}

}  // namespace
}  // namespace hiercoll
