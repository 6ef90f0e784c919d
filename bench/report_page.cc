#include "bench/report_page.h"

#include <filesystem>
#include <fstream>

#include "bench/gnuplot.h"
#include "bench/report_data.h"
#include "bench/report_html.h"
#include "bench/report_plots.h"
#include "hiercoll_version.h"
#include "measure/csv.h"

namespace hcbench {

namespace {

namespace fs = std::filesystem;

// The run's header: summary.txt's lines up to the first empty one.
std::vector<std::string> summary_header(const fs::path& job) {
  std::vector<std::string> lines;
  std::ifstream in(job / "summary.txt");
  for (std::string line; std::getline(in, line) && !line.empty();) lines.push_back(line);
  return lines;
}

// href of a file of a job folder, relative to the page; "" when absent.
std::string href(const fs::path& out, const fs::path& job, const std::string& name) {
  std::error_code ec;
  if (!fs::exists(job / name, ec)) return "";
  const fs::path rel = fs::relative(job / name, out, ec);
  return ec ? (job / name).string() : rel.generic_string();
}

void add_figure(const fs::path& out, const fs::path& dir, const std::string& png, const std::string& caption,
                std::vector<Figure>* figures) {
  const std::string src = png.empty() ? "" : href(out, dir, "plots/" + png);
  if (!src.empty()) figures->push_back({src, caption});
}

}  // namespace

std::string write_report(const std::string& out_dir, const std::vector<std::string>& job_dirs, bool draw) {
  const fs::path out(out_dir);
  std::vector<std::vector<CsvRow>> jobs;
  std::vector<std::vector<BoundRow>> bounds;
  for (const std::string& dir : job_dirs) {
    std::string error;
    const fs::path csv = fs::path(dir) / "results.csv";
    std::ifstream in(csv);
    jobs.emplace_back();
    if (!in || !read_csv(in, &jobs.back(), &error))
      return "report: not written: " + csv.string() + ": " + (in ? error : "cannot be read");
    bounds.emplace_back();
    std::ifstream lb(fs::path(dir) / "lower_bound.csv");
    if (lb && !read_bound_csv(lb, &bounds.back(), &error))
      return "report: not written: " + (fs::path(dir) / "lower_bound.csv").string() + ": " + error;
  }
  const ReportData data = report_data(jobs, bounds);
  const int n = static_cast<int>(job_dirs.size());

  ReportPage page;
  page.title = std::string("hiercoll ") + HIERCOLL_VERSION + " benchmark";
  page.header = summary_header(job_dirs.front());
  if (n > 1) page.header.insert(page.header.begin(), std::to_string(n) + " jobs; the header of the first:");

  std::error_code ec;
  fs::create_directories(out / "plots", ec);
  const std::vector<TextFile> files = report_plot_files(data, data.layout);
  for (const TextFile& f : files) std::ofstream(out / "plots" / f.name) << f.content;
  GnuplotRun run;
  if (draw) run = run_gnuplot((out / "plots").string(), gp_scripts(files));
  if (!run.available)
    page.notes.push_back(std::string("plots not drawn (") + (draw ? "gnuplot not found" : "--no-plots") +
                         "): run gnuplot on the .gp files in plots/, then reload");
  for (const std::string& s : run.failed) page.notes.push_back("gnuplot failed on plots/" + s);

  const fs::path first(job_dirs.front());
  const std::string job1 = n > 1 ? " (job 1)" : "";
  for (const OpReport& o : data.ops) {
    std::vector<Figure> figures;
    add_figure(out, out, speedup_png(o, data), o.op + ": speedup over native", &figures);
    add_figure(out, out, bound_png(o), o.op + ": hier's time over the lower bound", &figures);
    add_figure(out, first, o.op + ".png", o.op + ": time per call" + job1, &figures);
    if (o.rooted) add_figure(out, first, o.op + "_roots.png", o.op + ": best..worst root" + job1, &figures);
    page.figures.push_back(figures);
  }
  for (int j = 0; j < n; ++j) {
    const std::string tag = n > 1 ? " (job " + std::to_string(j + 1) + ")" : "";
    for (const char* name : {"summary.txt", "results.csv", "lower_bound.csv"}) {
      const std::string h = href(out, job_dirs[j], name);
      if (!h.empty()) page.links.push_back({name + tag, h});
    }
  }
  if (n > 1 && fs::exists(out / "jobs.txt", ec)) page.links.push_back({"jobs.txt", "jobs.txt"});

  const fs::path html = out / "report.html";
  std::ofstream f(html);
  f << report_html(data, page);
  if (!f) return "report: not written: cannot write " + html.string();
  return "report: " + html.string() + " (open it in a browser)";
}

}  // namespace hcbench
