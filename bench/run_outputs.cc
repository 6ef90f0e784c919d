#include "bench/run_outputs.h"

#include <mpi.h>

#include <filesystem>
#include <fstream>

#include "bench/gbench.h"
#include "bench/gnuplot.h"
#include "bench/plots.h"
#include "bench/report.h"
#include "bench/report_page.h"
#include "bench/run_text.h"
#include "hiercoll_version.h"
#include "measure/csv.h"

namespace hcbench {
namespace {

namespace fs = std::filesystem;

bool write_file(const fs::path& path, const std::string& content) {
  std::ofstream f(path);
  f << content;
  return static_cast<bool>(f);
}

void write_tables(const RunOutputs& o, Log& log) {
  const fs::path out(o.dir);
  const Machine& machine = *o.machine;
  std::ofstream csv(out / "results.csv");
  write_csv(csv, csv_rows(*o.results, machine.layout, o.opt->ops, o.impl_names));
  csv.close();
  if (o.opt->lower_bound)
    write_file(out / "lower_bound.csv", lower_bound_csv(*o.results, *o.links, machine.layout, o.opt->ops));
  std::vector<std::pair<std::string, std::string>> context = {
      {"hiercoll_version", HIERCOLL_VERSION},
      {"hiercoll_layout", machine.header()},
      {"hiercoll_link_model", describe_link_model(*o.link_model)},
      {"hiercoll_nodes", std::to_string(machine.layout.nodes)},
      {"hiercoll_ppn", machine.layout.ppn_string()},
      {"hiercoll_ranks", std::to_string(o.ranks)},
      {"hiercoll_mpi", machine.mpi_library},
      {"hiercoll_sync", o.opt->sync},
      {"hiercoll_impls", join(o.impl_names, ",")},
  };
  if (o.opt->lower_bound) context.emplace_back("hiercoll_links", describe_links(*o.links, machine));
  if (!write_gbench_json(*o.results, o.opt->ops, o.impl_names, context, (out / "gbench.json").string()))
    log.say("WARNING: could not write %s", (out / "gbench.json").c_str());
}

void write_plots(const RunOutputs& o, Log& log) {
  PlotInput in;
  in.results = o.results;
  for (const OpInfo* op : *o.ops) {
    in.ops.push_back(op->name);
    in.rooted.push_back(op->rooted);
  }
  in.impls = o.impl_names;
  in.context = o.machine->short_context();
  in.links = *o.links;
  in.nodes = o.machine->layout.nodes;
  const fs::path plots = fs::path(o.dir) / "plots";
  const std::vector<TextFile> files = plot_files(in);
  for (const TextFile& f : files) write_file(plots / f.name, f.content);
  GnuplotRun drawn;
  if (o.opt->plots) drawn = run_gnuplot(plots.string(), gp_scripts(files));
  for (const std::string& s : drawn.failed) log.say("WARNING: gnuplot failed on %s", (plots / s).c_str());
  if (drawn.available) {
    log.say("plots: %d PNG files in %s", drawn.made, plots.c_str());
  } else {
    log.say("plots: not drawn (%s); run: cd %s && for f in *.gp; do gnuplot $f; done",
            o.opt->plots ? "gnuplot not found" : "--no-plots", plots.c_str());
  }
}

}  // namespace

void write_run_outputs(const RunOutputs& o, Log& log) {
  const fs::path out(o.dir);
  write_tables(o, log);
  write_plots(o, log);
  // The page of speedups and bounds (bench/report_page.h) shows the
  // header of summary.txt, so that is written first.
  write_file(out / "summary.txt", log.kept());
  log.say("%s", write_report(o.dir, {o.dir}, o.opt->plots).c_str());
  log.say("results: %s (report.html, results.csv, %sgbench.json, summary.txt, plots/)", out.c_str(),
          o.opt->lower_bound ? "lower_bound.csv, " : "");
  log.say("finished in %.0f s (load average now: %s)", MPI_Wtime() - o.began, load_average().c_str());
  write_file(out / "summary.txt", log.kept());
}

}  // namespace hcbench
