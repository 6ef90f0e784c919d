// The benchmark's statistics, per-root aggregation, CSV writer and reader,
// the comparison of jobs, options and report helpers (//bench:bench_lib, //measure:measure_lib: no MPI).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "bench/jobs.h"
#include "bench/options.h"
#include "bench/plots.h"
#include "bench/report.h"
#include "measure/csv.h"
#include "measure/results.h"
#include "measure/sizes.h"
#include "measure/stats.h"

namespace hcbench {
namespace {

TEST(Median, OddEvenEmpty) {
  EXPECT_DOUBLE_EQ(median({3}), 3);
  EXPECT_DOUBLE_EQ(median({5, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7, 7, 1, 100}), 7);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Median, RobustToOutliers) {
  EXPECT_DOUBLE_EQ(median({10, 11, 12, 1e9, 9}), 11);
}

TEST(Summarize, MinMedianMax) {
  const Summary s = summarize({4, 8, 1, 6, 2});
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.median, 4);
  EXPECT_DOUBLE_EQ(s.max, 8);
  EXPECT_EQ(s.n, 5);
  const Summary e = summarize({});
  EXPECT_EQ(e.n, 0);
  EXPECT_TRUE(std::isnan(e.median));
}

TEST(AggregateRoots, OverPerRootMedians) {
  // Three roots; the aggregate works on each root's median only.
  std::vector<RootSummary> roots = {
      {0, summarize({10, 11, 100})},  // median 11 (the outlier does not count)
      {1, summarize({20, 22, 21})},   // median 21
      {2, summarize({15, 16})},       // median 15.5, two reps
  };
  const RootAggregate a = aggregate_roots(roots);
  EXPECT_DOUBLE_EQ(a.median, 15.5);
  EXPECT_DOUBLE_EQ(a.min, 11);
  EXPECT_DOUBLE_EQ(a.max, 21);
  EXPECT_EQ(a.best_root, 0);
  EXPECT_EQ(a.worst_root, 1);
  EXPECT_EQ(a.roots, 3);
  EXPECT_EQ(a.reps, 2);
  EXPECT_NEAR(a.spread(), 21.0 / 11, 1e-12);
}

TEST(AggregateRoots, UnrootedIsItsOwnMedian) {
  const RootAggregate a = aggregate_roots({{-1, summarize({5, 6, 7})}});
  EXPECT_DOUBLE_EQ(a.median, 6);
  EXPECT_DOUBLE_EQ(a.min, 6);
  EXPECT_DOUBLE_EQ(a.max, 6);
  EXPECT_DOUBLE_EQ(a.spread(), 1);
  EXPECT_TRUE(std::isnan(aggregate_roots({}).median));
}

TEST(Speedup, Ratio) {
  EXPECT_DOUBLE_EQ(speedup(300, 100), 3);
  EXPECT_TRUE(std::isnan(speedup(NAN, 1)));
  EXPECT_TRUE(std::isnan(speedup(1, 0)));
}

TEST(Csv, HeaderIsExact) {
  EXPECT_STREQ(kCsvHeader, "op,bytes,nodes,ppn,impl,algorithm,root,median_us,min_us,max_us,reps");
}

// A row with every field set; its algorithm holds a comma (to be quoted).
CsvRow sample_row() {
  CsvRow r;
  r.op = "bcast";
  r.bytes = 65536;
  r.nodes = 3;
  r.ppn = "3+1+2";
  r.impl = "hier:twotree@seg=8192";
  r.algorithm = "hier:a,b";
  r.root = 4;
  r.median_us = 12.3456;
  r.min_us = 10;
  r.max_us = NAN;
  r.reps = 7;
  return r;
}

TEST(Csv, RowsAndQuoting) {
  const CsvRow r = sample_row();
  EXPECT_EQ(csv_line(r), "bcast,65536,3,3+1+2,hier:twotree@seg=8192,\"hier:a,b\",4,12.346,10.000,nan,7");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("plain"), "plain");

  std::ostringstream out;
  CsvRow u = r;
  u.root = -1;
  u.algorithm = "ring";
  write_csv(out, {u});
  EXPECT_EQ(out.str(), std::string(kCsvHeader) + "\nbcast,65536,3,3+1+2,hier:twotree@seg=8192,ring,-1,12.346,10.000,nan,7\n");
}

TEST(Results, CsvRowsPerRootAndLayout) {
  Results res;
  for (int root : {2, 0, 1}) res.add({"bcast", 8, "hier", "hier:x", root, {1.0 * root, 2.0 * root + 1, 3}, false});
  res.add({"allreduce", 8, "hier", "ring", -1, {5, 6, 7}, false});
  LayoutInfo layout;
  layout.ranks = 6;
  layout.nodes = 3;
  layout.ppn = {3, 1, 2};
  const std::vector<CsvRow> rows = csv_rows(res, layout, {"bcast", "allreduce"}, {"hier"});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].root, 0);
  EXPECT_EQ(rows[1].root, 1);
  EXPECT_EQ(rows[2].root, 2);
  EXPECT_EQ(rows[3].root, -1);
  EXPECT_EQ(rows[3].op, "allreduce");
  EXPECT_EQ(rows[0].ppn, "3+1+2");
  EXPECT_EQ(rows[0].nodes, 3);
  EXPECT_DOUBLE_EQ(rows[2].median_us, 3);  // {2, 5, 3}
  EXPECT_EQ(rows[2].reps, 3);
  // Aggregation over the three roots' medians {1, 3, 3}... root 0: {0,1,3} -> 1
  const RootAggregate a = res.aggregate("bcast", 8, "hier");
  EXPECT_DOUBLE_EQ(a.min, 1);
  EXPECT_EQ(a.best_root, 0);
}

TEST(Layout, PpnEncoding) {
  LayoutInfo l;
  l.nodes = 4;
  l.ppn = {2, 2, 2, 2};
  EXPECT_EQ(l.ppn_string(), "2");
  EXPECT_EQ(l.short_name(), "4x2");
  l.nodes = 3;
  l.ppn = {3, 1, 2};
  EXPECT_EQ(l.ppn_string(), "3+1+2");
  EXPECT_EQ(l.short_name(), "3+1+2");
}

TEST(Options, Sizes) {
  int64_t b = 0;
  EXPECT_TRUE(parse_size("8", &b));
  EXPECT_EQ(b, 8);
  EXPECT_TRUE(parse_size("64K", &b));
  EXPECT_EQ(b, 65536);
  EXPECT_TRUE(parse_size("4MiB", &b));
  EXPECT_EQ(b, 4 << 20);
  EXPECT_TRUE(parse_size("1k", &b));
  EXPECT_EQ(b, 1024);
  EXPECT_FALSE(parse_size("", &b));
  EXPECT_FALSE(parse_size("K", &b));
  EXPECT_FALSE(parse_size("12Q", &b));
  EXPECT_EQ(format_size(8), "8");
  EXPECT_EQ(format_size(65536), "64K");
  EXPECT_EQ(format_size(4 << 20), "4M");
  EXPECT_EQ(format_size(3000), "3000");
  std::vector<int64_t> sizes;
  std::string err;
  EXPECT_TRUE(parse_size_list("1M,8,64K-256K,8", &sizes, &err));
  EXPECT_EQ(sizes, (std::vector<int64_t>{8, 65536, 131072, 262144, 1 << 20}));
  EXPECT_FALSE(parse_size_list("8,x", &sizes, &err));
}

TEST(Options, Impls) {
  ImplSpec s;
  std::string err;
  ASSERT_TRUE(parse_impl("han", &s, &err));
  EXPECT_EQ(s.kind, ImplSpec::kHan);
  ASSERT_TRUE(parse_impl("flat:rabenseifner", &s, &err));
  EXPECT_EQ(s.kind, ImplSpec::kFlat);
  EXPECT_EQ(s.algorithm, "rabenseifner");
  ASSERT_TRUE(parse_impl("hier:twotree@seg=8K@hiercoll_x=y", &s, &err));
  EXPECT_EQ(s.kind, ImplSpec::kHier);
  EXPECT_EQ(s.algorithm, "twotree");
  ASSERT_EQ(s.hints.size(), 2u);
  EXPECT_EQ(s.hints[0], (std::pair<std::string, std::string>{"hiercoll_segment_bytes", "8192"}));
  EXPECT_EQ(s.hints[1], (std::pair<std::string, std::string>{"hiercoll_x", "y"}));
  EXPECT_FALSE(parse_impl("native:ring", &s, &err));
  EXPECT_FALSE(parse_impl("mpich", &s, &err));
  EXPECT_FALSE(parse_impl("hier@seg", &s, &err));
}

TEST(Options, DynamicImpl) {
  ImplSpec s;
  std::string err;
  ASSERT_TRUE(parse_impl("dynamic", &s, &err)) << err;
  EXPECT_EQ(s.kind, ImplSpec::kHier);
  ASSERT_EQ(s.hints.size(), 1u);
  EXPECT_EQ(s.hints[0], (std::pair<std::string, std::string>{"hiercoll_dynamic", "depth"}));
  EXPECT_FALSE(parse_impl("dynamic:binomial", &s, &err));
}

TEST(Skew, FixedAndRandom) {
  Skew k;
  EXPECT_EQ(parse_skew("1@2000,2@3000,3@4000", &k), "");
  EXPECT_EQ(k.delays(0, 5), (std::vector<double>{0, 2000, 3000, 4000, 0}));
  EXPECT_EQ(k.delays(7, 3), (std::vector<double>{0, 2000, 3000}));  // ranks beyond the job: none
  ASSERT_EQ(parse_skew("random:2:500:9", &k), "");
  for (int rep = 0; rep < 20; ++rep) {
    const std::vector<double> d = k.delays(rep, 8);
    EXPECT_EQ(d, k.delays(rep, 8));  // every rank draws the same
    int late = 0;
    for (double us : d) {
      EXPECT_GE(us, 0);
      EXPECT_LE(us, 500);
      late += us > 0;
    }
    EXPECT_LE(late, 2);
  }
  EXPECT_NE(k.delays(0, 8), k.delays(1, 8));  // drawn per repetition
  for (const char* bad : {"", "1@", "@5", "x@1", "1@-3", "random:0:5:1", "random:2:5", "random:a:5:1"})
    EXPECT_NE(parse_skew(bad, &k), "") << bad;
}

TEST(Options, CommandLine) {
  const char* argv[] = {"bench", "--ops", "bcast,scan", "--sizes=8,1M", "--impls", "hier,native",
                        "--reps", "7", "--roots", "0,3", "--out", "/tmp/x", "--no-plots"};
  Options o;
  std::string err;
  ASSERT_TRUE(parse_options(13, const_cast<char**>(argv), &o, &err)) << err;
  EXPECT_EQ(o.ops, (std::vector<std::string>{"bcast", "scan"}));
  EXPECT_EQ(o.sizes, (std::vector<int64_t>{8, 1 << 20}));
  ASSERT_EQ(o.impls.size(), 2u);
  EXPECT_EQ(o.impls[1].kind, ImplSpec::kNative);
  EXPECT_EQ(o.reps, 7);
  EXPECT_EQ(o.roots, "0,3");
  EXPECT_EQ(o.out, "/tmp/x");
  EXPECT_FALSE(o.plots);

  Options d;
  const char* none[] = {"bench"};
  ASSERT_TRUE(parse_options(1, const_cast<char**>(none), &d, &err));
  EXPECT_EQ(d.impls.size(), 4u);
  EXPECT_EQ(d.sync, "time");

  const char* bad[] = {"bench", "--ops", "bcast,nosuchop"};
  EXPECT_FALSE(parse_options(3, const_cast<char**>(bad), &d, &err));
  EXPECT_NE(err.find("nosuchop"), std::string::npos);
  const char* twice[] = {"bench", "--impls", "hier,hier"};
  EXPECT_FALSE(parse_options(3, const_cast<char**>(twice), &d, &err));
}

TEST(Options, OverlapWork) {
  Options o;
  std::string err;
  const char* none[] = {"bench", "--overlap"};
  ASSERT_TRUE(parse_options(2, const_cast<char**>(none), &o, &err)) << err;
  EXPECT_FALSE(o.overlap_sleep);
  const char* sleep[] = {"bench", "--overlap", "--overlap-work", "sleep"};
  ASSERT_TRUE(parse_options(4, const_cast<char**>(sleep), &o, &err)) << err;
  EXPECT_TRUE(o.overlap_sleep);
  const char* spin[] = {"bench", "--overlap", "--overlap-work=spin"};
  ASSERT_TRUE(parse_options(3, const_cast<char**>(spin), &o, &err)) << err;
  EXPECT_FALSE(o.overlap_sleep);
  const char* bad[] = {"bench", "--overlap-work", "nap"};
  EXPECT_FALSE(parse_options(3, const_cast<char**>(bad), &o, &err));
  EXPECT_NE(err.find("nap"), std::string::npos);
}

TEST(LowerBound, Model) {
  Links l;
  l.inter = {true, 20, 1000};  // 20 µs + 1000 bytes/µs
  l.intra = {true, 1, 10000};
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 1000000, 4, l), 20 + 1000);
  EXPECT_DOUBLE_EQ(lower_bound_us("reduce", 1000000, 4, l), 20 + 1000);
  EXPECT_DOUBLE_EQ(lower_bound_us("allreduce", 1000000, 4, l), 40 + 2 * 0.75 * 1000);
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 10000, 1, l), 1 + 1);
  EXPECT_TRUE(std::isnan(lower_bound_us("scan", 8, 4, l)));
  // Busy links: their bandwidth, the idle latency; none measured: NaN.
  EXPECT_TRUE(std::isnan(lower_bound_us("bcast", 1000000, 4, l, true)));
  l.inter_busy = {true, 50, 250};
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 1000000, 4, l, true), 20 + 1000000 / (250 * 4.0 / 3));
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 1000000, 2, l, true), 20 + 1000000 / 500.0);
  l.inter_busy = {true, 50, 900};  // never faster than the link alone
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 1000000, 4, l, true), 20 + 1000);
  l.inter_busy = {true, 50, 250};
  EXPECT_DOUBLE_EQ(lower_bound_us("allreduce", 1000000, 4, l, true), 40 + 2 * 0.75 * 4000);
  EXPECT_TRUE(std::isnan(lower_bound_us("bcast", 1000000, 1, l, true)));
  EXPECT_TRUE(std::isnan(lower_bound_us("bcast", 8, 4, Links{})));
}

TEST(Report, TableHasSpeedups) {
  Results res;
  for (int root : {0, 1}) {
    res.add({"bcast", 1024, "hier", "hier:x", root, {10, 10, 10}, false});
    res.add({"bcast", 1024, "native", "ompi:t", root, {20.0 + 20 * root}, false});
  }
  const std::string t = op_table(res, "bcast", true, {"hier", "native"});
  EXPECT_NE(t.find("hier/native"), std::string::npos);
  EXPECT_NE(t.find("3.00x"), std::string::npos);  // median over roots: 30 / 10
  EXPECT_NE(t.find("4.00x"), std::string::npos);  // worst root: 40 / 10
  EXPECT_NE(t.find("2.00x"), std::string::npos);  // native's root spread
  EXPECT_EQ(format_us(1234.4), "1234");
  EXPECT_EQ(format_us(12.34), "12.3");
  EXPECT_EQ(format_ratio(NAN), "-");
}

TEST(Plots, ScriptsAndData) {
  Results res;
  res.add({"bcast", 8, "hier", "a", 0, {1, 2, 3}, false});
  res.add({"bcast", 1024, "hier", "a", 0, {4, 5, 6}, false});
  res.add({"barrier", 0, "hier", "a", -1, {7}, false});
  PlotInput in;
  in.results = &res;
  in.ops = {"bcast", "barrier"};
  in.rooted = {true, false};
  in.impls = {"hier"};
  in.context = "test";
  const std::vector<TextFile> files = plot_files(in);
  std::vector<std::string> names;
  for (const TextFile& f : files) names.push_back(f.name);
  for (const char* want : {"bcast.dat", "bcast.gp", "bcast_roots.gp", "bcast_per_root.gp", "bcast_per_root_1K.dat",
                           "barrier.gp"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  for (const TextFile& f : files)
    if (f.name == "bcast.gp") {
      EXPECT_NE(f.content.find("set terminal pngcairo"), std::string::npos);
      EXPECT_NE(f.content.find("set output \"bcast.png\""), std::string::npos);
    }
}

TEST(Csv, ReadsWhatItWrites) {
  CsvRow a = sample_row();
  a.impl = "hier:bcast@x=1,2";  // a comma: quoted
  a.algorithm = "say \"hi\"";  // quotes: doubled
  CsvRow b = a;
  b.op = "barrier";
  b.root = -1;
  b.impl = "native";
  std::stringstream io;
  write_csv(io, {a, b});
  std::vector<CsvRow> back;
  std::string error;
  ASSERT_TRUE(read_csv(io, &back, &error)) << error;
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(csv_line(back[0]), csv_line(a));
  EXPECT_EQ(csv_line(back[1]), csv_line(b));
  EXPECT_EQ(back[0].impl, a.impl);
  EXPECT_EQ(back[0].algorithm, a.algorithm);
  EXPECT_TRUE(std::isnan(back[0].max_us));
}

TEST(Csv, RefusesAnotherHeaderOrShortLines) {
  std::vector<CsvRow> rows;
  std::string error;
  std::istringstream other("a,b,c\n1,2,3\n");
  EXPECT_FALSE(read_csv(other, &rows, &error));
  std::istringstream short_line(std::string(kCsvHeader) + "\nbcast,8,4\n");
  EXPECT_FALSE(read_csv(short_line, &rows, &error));
  EXPECT_NE(error.find("line 2"), std::string::npos) << error;
}

CsvRow row(const std::string& op, int64_t bytes, const std::string& impl, int root, double us) {
  CsvRow r;
  r.op = op;
  r.bytes = bytes;
  r.impl = impl;
  r.root = root;
  r.median_us = us;
  return r;
}

TEST(Jobs, RatiosOverJobs) {
  // Three jobs; bcast over roots 0..2, barrier without a root.
  const std::vector<std::vector<CsvRow>> jobs = {
      {row("bcast", 8, "hier", 0, 10), row("bcast", 8, "hier", 1, 20), row("bcast", 8, "hier", 2, 30),
       row("bcast", 8, "native", 0, 20), row("bcast", 8, "native", 1, 40), row("bcast", 8, "native", 2, 90),
       row("barrier", 0, "hier", -1, 10), row("barrier", 0, "native", -1, 15)},
      {row("bcast", 8, "hier", 0, 10), row("bcast", 8, "hier", 1, 10), row("bcast", 8, "hier", 2, 10),
       row("bcast", 8, "native", 0, 10), row("bcast", 8, "native", 1, 10), row("bcast", 8, "native", 2, 10),
       row("barrier", 0, "hier", -1, 10), row("barrier", 0, "native", -1, 30)},
      {row("bcast", 8, "hier", 0, 10), row("bcast", 8, "hier", 1, 10), row("bcast", 8, "hier", 2, 40),
       row("bcast", 8, "native", 0, 30), row("bcast", 8, "native", 1, 30), row("bcast", 8, "native", 2, 30),
       row("barrier", 0, "hier", -1, 20), row("barrier", 0, "native", -1, 20)},
  };
  const std::vector<JobsRow> rows = compare_jobs(jobs, "hier");
  ASSERT_EQ(rows.size(), 2u);
  const JobsRow& b = rows[0];
  EXPECT_EQ(b.op, "bcast");
  EXPECT_EQ(b.impl, "native");
  EXPECT_TRUE(b.rooted);
  // Median over roots: job 1 40/20, job 2 10/10, job 3 30/10.
  EXPECT_EQ(b.speedup.n, 3);
  EXPECT_DOUBLE_EQ(b.speedup.median, 2);
  EXPECT_DOUBLE_EQ(b.speedup.min, 1);
  EXPECT_DOUBLE_EQ(b.speedup.max, 3);
  // Worst roots: 90/30, 10/10, 30/40.
  EXPECT_DOUBLE_EQ(b.worst_root_speedup.median, 1);
  EXPECT_DOUBLE_EQ(b.worst_root_speedup.min, 0.75);
  EXPECT_DOUBLE_EQ(b.worst_root_speedup.max, 3);
  // hier's spread: 30/10, 10/10, 40/10.
  EXPECT_DOUBLE_EQ(b.reference_spread.median, 3);
  EXPECT_DOUBLE_EQ(b.reference_spread.max, 4);
  const JobsRow& r = rows[1];
  EXPECT_EQ(r.op, "barrier");
  EXPECT_FALSE(r.rooted);
  EXPECT_DOUBLE_EQ(r.speedup.median, 1.5);  // 1.5, 3, 1
  EXPECT_EQ(r.worst_root_speedup.n, 0);

  const std::string table = jobs_table(rows, "hier", 3);
  EXPECT_NE(table.find("2.00 (1.00-3.00)"), std::string::npos) << table;
  EXPECT_NE(table.find("root spread 3.00 (1.00-4.00)"), std::string::npos) << table;
  std::ostringstream csv;
  write_jobs_csv(csv, rows);
  EXPECT_NE(csv.str().find("bcast,8,native,3,2.000,1.000,3.000,1.000,0.750,3.000,3.000,1.000,4.000\n"),
            std::string::npos)
      << csv.str();
  EXPECT_NE(csv.str().find("barrier,0,native,3,1.500,1.000,3.000,,,,,,\n"), std::string::npos) << csv.str();
}

TEST(Jobs, JobsMissingAPointAreLeftOut) {
  const std::vector<std::vector<CsvRow>> jobs = {
      {row("scan", 8, "hier", -1, 10), row("scan", 8, "native", -1, 20)},
      {row("scan", 8, "hier", -1, 10)},  // native skipped in this job
  };
  const std::vector<JobsRow> rows = compare_jobs(jobs, "hier");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].speedup.n, 1);
  EXPECT_DOUBLE_EQ(rows[0].speedup.median, 2);
}

}  // namespace
}  // namespace hcbench
