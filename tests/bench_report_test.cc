// The benchmark's page (bench/report_data.h, report_plots.h, report_html.h):
// speedups over native from one or several jobs' rows, the bounds read
// back from lower_bound.csv, the plots' scripts and the page's HTML.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "bench/report_data.h"
#include "bench/report_html.h"
#include "bench/report_plots.h"
#include "measure/csv.h"

namespace hcbench {
namespace {

CsvRow row(const std::string& op, int64_t bytes, const std::string& impl, int root, double us) {
  CsvRow r;
  r.op = op;
  r.bytes = bytes;
  r.nodes = 4;
  r.ppn = "2";
  r.impl = impl;
  r.root = root;
  r.median_us = r.min_us = r.max_us = us;
  r.reps = 3;
  return r;
}

// One job: allreduce at 8 and 1024 bytes; hier `factor` times faster than
// native, flat twice slower; bcast over two roots.
std::vector<CsvRow> job(double factor) {
  std::vector<CsvRow> rows;
  for (int64_t b : {8, 1024}) {
    rows.push_back(row("allreduce", b, "hier", -1, 10 / factor));
    rows.push_back(row("allreduce", b, "flat", -1, 20));
    rows.push_back(row("allreduce", b, "native", -1, 10));
  }
  for (int root : {0, 1}) {
    rows.push_back(row("bcast", 64, "hier", root, root == 0 ? 5 : 7));
    rows.push_back(row("bcast", 64, "native", root, 10));
  }
  return rows;
}

TEST(ReportData, SpeedupIsNativesTimeOverTheImplementations) {
  const ReportData d = report_data({job(2)}, {{}});
  ASSERT_EQ(d.ops.size(), 2u);
  EXPECT_TRUE(d.has_reference);
  EXPECT_EQ(d.layout, "4 nodes x 2 ranks");
  const OpReport& a = d.ops[0];
  EXPECT_EQ(a.op, "allreduce");
  EXPECT_FALSE(a.rooted);
  EXPECT_EQ(a.impls, (std::vector<std::string>{"hier", "flat"}));
  EXPECT_DOUBLE_EQ(a.speedup.at({"hier", 8}).median, 2);
  EXPECT_DOUBLE_EQ(a.speedup.at({"flat", 1024}).median, 0.5);
  // A rooted operation: the median over roots (6 µs) against native's 10.
  const OpReport& b = d.ops[1];
  EXPECT_TRUE(b.rooted);
  EXPECT_DOUBLE_EQ(b.speedup.at({"hier", 64}).median, 10.0 / 6);
}

TEST(ReportData, RangesOverJobs) {
  const ReportData d = report_data({job(2), job(4), job(3)}, {{}, {}, {}});
  EXPECT_EQ(d.jobs, 3);
  const Summary s = d.ops[0].speedup.at({"hier", 8});
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 4);
}

TEST(ReportData, WithoutNativeNoSpeedups) {
  std::vector<CsvRow> rows = {row("allreduce", 8, "hier", -1, 5), row("allreduce", 8, "flat", -1, 6)};
  const ReportData d = report_data({rows}, {{}});
  EXPECT_FALSE(d.has_reference);
  EXPECT_TRUE(d.ops[0].speedup.empty());
  EXPECT_EQ(speedup_png(d.ops[0], d), "");
  EXPECT_EQ(report_html(d, {}).find("<img"), std::string::npos);
}

TEST(BoundCsv, ReadBackAndSummarizedOverJobs) {
  std::istringstream in(
      "op,bytes,nodes,ppn,bound_us,hier_median_us,ratio,busy_bound_us,busy_ratio\n"
      "allreduce,8,4,2,10.000,20.000,2.000,5.000,4.000\n"
      "allreduce,1024,4,2,10.000,nan,nan,5.000,nan\n");
  std::vector<BoundRow> rows;
  std::string error;
  ASSERT_TRUE(read_bound_csv(in, &rows, &error)) << error;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[0].ratio, 2);
  EXPECT_TRUE(std::isnan(rows[1].ratio));
  std::vector<BoundRow> other = rows;
  other[0].ratio = 3;
  const ReportData d = report_data({job(2), job(2)}, {rows, other});
  const OpReport& a = d.ops[0];
  ASSERT_EQ(a.bound.size(), 1u);  // the size without a ratio is left out
  EXPECT_DOUBLE_EQ(a.bound.at(8).median, 2.5);
  EXPECT_DOUBLE_EQ(a.busy_bound.at(8).median, 4);
  EXPECT_EQ(bound_png(a), "allreduce_bound.png");

  std::istringstream bad("op,bytes\n");
  EXPECT_FALSE(read_bound_csv(bad, &rows, &error));
  EXPECT_NE(error.find("header"), std::string::npos);
}

TEST(ReportPlots, ErrorBarsWithSeveralJobsAndALineAtOne) {
  const std::vector<TextFile> one = report_plot_files(report_data({job(2)}, {{}}), "ctx");
  const std::vector<TextFile> three = report_plot_files(report_data({job(2), job(3), job(4)}, {{}, {}, {}}), "ctx");
  auto script = [](const std::vector<TextFile>& files, const std::string& name) {
    for (const TextFile& f : files)
      if (f.name == name) return f.content;
    return std::string();
  };
  const std::string single = script(one, "allreduce_speedup.gp");
  const std::string jobs = script(three, "allreduce_speedup.gp");
  ASSERT_FALSE(single.empty());
  EXPECT_EQ(single.find("yerrorlines"), std::string::npos);
  EXPECT_NE(jobs.find("yerrorlines"), std::string::npos);
  EXPECT_NE(jobs.find("1 with lines"), std::string::npos);
  EXPECT_NE(jobs.find("set output \"allreduce_speedup.png\""), std::string::npos);
  // The data: bytes, then median, lowest and highest of hier, then flat.
  EXPECT_NE(script(three, "allreduce_speedup.dat").find("\n8 3 2 4 0.5 0.5 0.5\n"), std::string::npos);
}

TEST(ReportHtml, TablesFiguresAndNothingFromTheNetwork) {
  const ReportData d = report_data({job(2), job(4)}, {{}, {}});
  ReportPage page;
  page.title = "hiercoll benchmark";
  page.header = {"layout: <4 nodes>"};
  page.links = {{"summary.txt", "job1/summary.txt"}};
  page.figures = {{{"plots/allreduce_speedup.png", "allreduce: speedup"}}, {}};
  const std::string html = report_html(d, page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("layout: &lt;4 nodes&gt;"), std::string::npos);  // escaped
  EXPECT_NE(html.find("<img src=\"plots/allreduce_speedup.png\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"job1/summary.txt\">summary.txt</a>"), std::string::npos);
  // hier 2x and 4x faster: median 3.00, range 2.00-4.00, marked good.
  EXPECT_NE(html.find("<td class=\"good\">3.00 <small>(2.00–4.00)</small></td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"bad\">0.50 <small>(0.50–0.50)</small></td>"), std::string::npos);
  EXPECT_NE(html.find("href=\"#op-bcast\""), std::string::npos);
  for (const char* absent : {"http:", "https:", "<script", "<link"}) EXPECT_EQ(html.find(absent), std::string::npos);
}

}  // namespace
}  // namespace hcbench
