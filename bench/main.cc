// hiercoll_bench: hiercoll's hierarchical and flat collectives against Open
// MPI's own (coll/tuned) and Open MPI's hierarchical component (HAN), in one
// job, interleaved. See docs/BENCHMARK.md.
#include <mpi.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/calls.h"
#include "bench/clock.h"
#include "bench/csv.h"
#include "bench/gbench.h"
#include "bench/impls.h"
#include "bench/link_model.h"
#include "bench/log.h"
#include "bench/machine.h"
#include "bench/measure.h"
#include "bench/ops.h"
#include "bench/options.h"
#include "bench/overlap.h"
#include "bench/persistent.h"
#include "bench/pingpong.h"
#include "bench/plots.h"
#include "bench/report.h"
#include "bench/report_page.h"
#include "hiercoll_version.h"

namespace hcbench {
namespace {

namespace fs = std::filesystem;

std::string timestamp(const char* fmt) {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, fmt, std::localtime(&t));
  return buf;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::string sizes_text(const std::vector<int64_t>& sizes) {
  std::vector<std::string> s;
  for (int64_t b : sizes) s.push_back(format_size(b));
  return join(s, ",");
}

bool write_file(const fs::path& path, const std::string& content) {
  std::ofstream f(path);
  f << content;
  return static_cast<bool>(f);
}

// Node names and their ranks: "node0 [0-1]  node1 [2-3] ...".
std::string nodes_text(const Machine& m) {
  std::string s;
  for (int n = 0; n < m.layout.nodes && n < 16; ++n) {
    const std::vector<int> r = m.ranks_of_node(n);
    std::string ranks;
    if (r.back() - r.front() + 1 == static_cast<int>(r.size()))
      ranks = r.size() == 1 ? std::to_string(r[0]) : std::to_string(r.front()) + "-" + std::to_string(r.back());
    else
      for (int x : r) ranks += (ranks.empty() ? "" : ",") + std::to_string(x);
    s += (n ? "  " : "") + m.node_names[n] + " [" + ranks + "]";
  }
  if (m.layout.nodes > 16) s += "  ...";
  return s;
}

// What Open MPI put in the communicator's table for each operation:
// "bcast=tuned_bcast_intra_dec_fixed, ...". *han: the ops that run HAN.
std::string ompi_functions(const Impl& impl, const std::vector<const OpInfo*>& ops, std::vector<std::string>* han) {
  std::string s;
  for (const OpInfo* op : ops) {
    const std::string f = ompi_function(impl.comm, *op);
    if (f.find("han_") != std::string::npos) han->push_back(op->name);
    s += std::string(s.empty() ? "" : ", ") + op->name + "=" + (f.empty() ? "unknown" : f.substr(5));
  }
  return s;
}

// The machine's 1-minute load average ("?" when unknown).
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string first;
  return in >> first ? first : "?";
}

int run(int argc, char** argv) {
  int rank, size;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  Log log(rank == 0);

  Options opt;
  std::string error;
  if (!parse_options(argc, argv, &opt, &error)) {
    if (rank == 0) std::fprintf(stderr, "hiercoll_bench: %s\n", error.c_str());
    return 2;
  }
  if (opt.help) {
    if (rank == 0) std::fputs(usage_text().c_str(), stdout);
    return 0;
  }
  const double began = MPI_Wtime();

  // A communicator of our own for synchronization, timing reductions and
  // ping-pong (Open MPI's collectives, never hiercoll's).
  MPI_Comm ctrl;
  PMPI_Comm_dup(MPI_COMM_WORLD, &ctrl);
  const Machine machine = discover_machine(ctrl);

  // Output folder (rank 0 writes every file).
  std::error_code cwd_error;
  const fs::path out = fs::absolute(
      opt.out.empty() ? fs::path("results") / (timestamp("%Y%m%d-%H%M%S") + "-" + machine.layout.short_name())
                      : fs::path(opt.out),
      cwd_error);
  int ok = 1;
  if (rank == 0) {
    std::error_code ec;
    fs::create_directories(out / "plots", ec);
    if (ec) {
      std::fprintf(stderr, "hiercoll_bench: cannot create %s: %s\n", (out / "plots").c_str(), ec.message().c_str());
      ok = 0;
    }
  }
  PMPI_Bcast(&ok, 1, MPI_INT, 0, ctrl);
  if (!ok) {
    PMPI_Comm_free(&ctrl);
    return 1;
  }

  // The studies, each with its own tables and files.
  if (opt.overlap || opt.persistent) {
    log.say("hiercoll benchmark %s %s, %s", HIERCOLL_VERSION, opt.overlap ? "--overlap" : "--persistent",
            timestamp("%Y-%m-%d %H:%M:%S").c_str());
    log.say("layout: %s; load average at start: %s", machine.header().c_str(), load_average().c_str());
    const int rc = opt.overlap ? run_overlap(opt, ctrl, out.string(), log)
                               : run_persistent(opt, ctrl, machine, out.string(), log);
    if (rank == 0) write_file(out / "summary.txt", log.kept());
    PMPI_Comm_free(&ctrl);
    return rc;
  }

  std::vector<const OpInfo*> ops;
  for (const std::string& name : opt.ops) ops.push_back(find_op(name));

  std::vector<Impl> impls;
  if (!create_impls(opt.impls, ctrl, &impls, &error)) {
    if (rank == 0) std::fprintf(stderr, "hiercoll_bench: %s\n", error.c_str());
    PMPI_Comm_free(&ctrl);
    return 2;
  }
  std::vector<std::string> impl_names;
  for (const Impl& i : impls) impl_names.push_back(i.spec.name);
  if (opt.skew.any()) impl_names.push_back("ideal");  // measure.cc adds its series

  // Header.
  log.say("hiercoll benchmark %s, %s", HIERCOLL_VERSION, timestamp("%Y-%m-%d %H:%M:%S").c_str());
  log.say("MPI: %s", machine.mpi_library.c_str());
  log.say("layout: %s", machine.header().c_str());
  if (opt.skew.any()) log.say("skew: %s (late ranks enter each timed call that late)", opt.skew.text.c_str());
  const std::string load = load_average();
  log.say("load average of the machine at start: %s", load.c_str());
  if (std::atof(load.c_str()) > 0.5 * machine.cores_per_machine + 0.5)
    log.say("WARNING: the machine is busy before the benchmark starts; other jobs distort the figures");
  log.say("nodes: %s", nodes_text(machine).c_str());
  std::string model_error;
  const LinkModel link_model = link_model_from_env(&model_error);
  if (!model_error.empty()) log.say("WARNING: %s; no link model assumed", model_error.c_str());
  log.say("link model: %s", describe_link_model(link_model).c_str());
  const std::vector<int> roots = choose_roots(opt.roots, machine.node_of);
  const bool any_rooted = std::any_of(ops.begin(), ops.end(), [](const OpInfo* o) { return o->rooted; });
  std::string reps_text = opt.reps ? std::to_string(opt.reps)
                                   : "auto (" + std::to_string(opt.min_reps) + ".." + std::to_string(opt.max_reps) +
                                         " within " + std::to_string(opt.point_seconds).substr(0, 4) + " s per point)";
  log.say("ops: %s; sizes: %s; reps: %s; warm-up: %d%s", join(opt.ops, ",").c_str(), sizes_text(opt.sizes).c_str(),
          reps_text.c_str(), opt.warmup, opt.check ? " (first call checked)" : "");
  if (any_rooted) {
    std::vector<std::string> r;
    for (int x : roots) r.push_back(std::to_string(x));
    log.say("roots of rooted ops: %s (%zu)", join(r, ",").c_str(), roots.size());
  }
  if (std::any_of(ops.begin(), ops.end(), [](const OpInfo* o) { return o->vector; }))
    log.say("v-variants' blocks (--counts): %s", opt.counts.name().c_str());
  bool han_missing = false;
  for (const Impl& i : impls) {
    std::string note;
    if (!i.via_hiercoll) {
      std::vector<std::string> han;
      const std::string f = ompi_functions(i, ops, &han);
      if (i.spec.kind == ImplSpec::kHan) {
        note = !han.empty() ? "  -> HAN active for " + join(han, ",") + " (Open MPI's table: " + f + ")"
                            : "  -> WARNING: HAN NOT active on this communicator: " + f;
        han_missing = han_missing || han.empty();
      } else {
        note = "  -> " + f;
      }
    }
    log.say("impl %-10s %s%s", i.spec.name.c_str(), i.hints_text.c_str(), note.c_str());
  }
  if (han_missing)
    log.say("  (HAN declines communicators whose ranks all share one node, and needs Open MPI 4.1 or newer)");

  Links links;
  if (opt.lower_bound) {
    links = measure_links(ctrl, machine);
    log.say("links (ping-pong, median one-way): %s", describe_links(links, machine).c_str());
  }
  SyncClock clock(ctrl, opt.sync == "barrier", machine.oversubscribed);
  if (opt.sync == "time")
    log.say("sync: common start time, margin %.1f µs, largest clock offset %.1f µs%s", clock.margin_us(),
            clock.max_offset_us(), machine.oversubscribed ? ", waiting ranks sleep, then yield" : "");
  else
    log.say("sync: two barriers before each call; time = slowest rank's own");
  log.say("output: %s", out.c_str());
  log.say("%s", "");

  // The points, in order.
  std::vector<Point> points;
  std::vector<std::string> notes;
  for (const OpInfo* op : ops) {
    std::vector<int64_t> sizes;
    if (!op->sized) sizes.push_back(0);
    for (int64_t b : opt.sizes)
      if (op->sized) sizes.push_back(effective_bytes(*op, b));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (int64_t b : sizes) {
      if (largest_buffer(*op, b, size) > opt.max_buffer) {
        notes.push_back(std::string(op->name) + " " + format_size(b) + ": skipped, needs " +
                        format_size(largest_buffer(*op, b, size)) + " per rank (--max-buffer)");
        continue;
      }
      points.push_back({op, b, op->rooted ? roots : std::vector<int>{-1}});
    }
  }
  for (const std::string& n : notes) log.say("note: %s", n.c_str());

  Results results;
  Runner runner(opt, ctrl, &impls, &clock);
  std::vector<std::string> warnings;
  long calls = 0;
  double late_weighted = 0;
  for (size_t k = 0; k < points.size(); ++k) {
    const Point& p = points[k];
    const PointOutcome o = runner.run(p, &results);
    calls += o.calls;
    late_weighted += o.lateness_us * o.calls;
    std::string line;
    char buf[256];
    std::snprintf(buf, sizeof buf, "[%2zu/%zu] %-9s %5s: ", k + 1, points.size(), p.op->name,
                  p.op->sized ? format_size(p.bytes).c_str() : "-");
    line += buf;
    if (p.op->rooted) line += std::to_string(p.roots.size()) + " roots x ";
    std::snprintf(buf, sizeof buf, "%d reps, %4.1f s |", o.reps, o.seconds);
    line += buf;
    for (size_t i = 0; i < o.impls.size(); ++i) line += " " + o.impls[i] + " " + format_us(o.median_us[i]);
    line += " µs";
    if (opt.sync == "time" && o.lateness_us >= 1) {
      std::snprintf(buf, sizeof buf, " | start lateness %.0f µs", o.lateness_us);
      line += buf;
    }
    log.say("%s", line.c_str());
    for (const std::string& s : o.skipped) log.say("         skipped %s", s.c_str());
    if (rank == 0)
      for (const Impl& i : impls) {
        const std::string note = i.forced_note(*p.op, results.algorithm(p.op->name, p.bytes, i.spec.name));
        if (!note.empty()) log.say("         note: %s", note.c_str());
      }
    for (const std::string& w : o.wrong) {
      warnings.push_back(w + " gave a WRONG result for " + p.op->name + " " + format_size(p.bytes));
      log.say("         WARNING: %s", warnings.back().c_str());
    }
    if (k + 1 == points.size() || points[k + 1].op != p.op) {
      log.text("\n" + op_table(results, p.op->name, p.op->rooted, impl_names) + "\n");
    }
  }

  if (opt.lower_bound) {
    const std::string lb = lower_bound_table(results, links, machine.layout.nodes, opt.ops);
    if (!lb.empty()) log.text(lb + "\n");
  }
  if (calls > 0 && opt.sync == "time")
    log.say("start lateness: a rank got going %.0f µs after the common start on average (part of the times)",
            late_weighted / calls);
  for (const std::string& w : warnings) log.say("WARNING: %s", w.c_str());

  // Files.
  if (rank == 0) {
    std::ofstream csv(out / "results.csv");
    write_csv(csv, csv_rows(results, machine.layout, opt.ops, impl_names));
    csv.close();
    if (opt.lower_bound)
      write_file(out / "lower_bound.csv", lower_bound_csv(results, links, machine.layout, opt.ops));

    std::vector<std::pair<std::string, std::string>> context = {
        {"hiercoll_version", HIERCOLL_VERSION},
        {"hiercoll_layout", machine.header()},
        {"hiercoll_link_model", describe_link_model(link_model)},
        {"hiercoll_nodes", std::to_string(machine.layout.nodes)},
        {"hiercoll_ppn", machine.layout.ppn_string()},
        {"hiercoll_ranks", std::to_string(size)},
        {"hiercoll_mpi", machine.mpi_library},
        {"hiercoll_sync", opt.sync},
        {"hiercoll_impls", join(impl_names, ",")},
    };
    if (opt.lower_bound) context.emplace_back("hiercoll_links", describe_links(links, machine));
    if (!write_gbench_json(results, opt.ops, impl_names, context, (out / "gbench.json").string()))
      log.say("WARNING: could not write %s", (out / "gbench.json").c_str());

    PlotInput in;
    in.results = &results;
    for (const OpInfo* op : ops) {
      in.ops.push_back(op->name);
      in.rooted.push_back(op->rooted);
    }
    in.impls = impl_names;
    in.context = machine.short_context();
    in.links = links;
    in.nodes = machine.layout.nodes;
    const fs::path plots = out / "plots";
    const std::vector<TextFile> files = plot_files(in);
    for (const TextFile& f : files) write_file(plots / f.name, f.content);
    GnuplotRun drawn;
    if (opt.plots) drawn = run_gnuplot(plots.string(), gp_scripts(files));
    for (const std::string& s : drawn.failed) log.say("WARNING: gnuplot failed on %s", (plots / s).c_str());
    if (drawn.available) {
      log.say("plots: %d PNG files in %s", drawn.made, plots.c_str());
    } else {
      log.say("plots: not drawn (%s); run: cd %s && for f in *.gp; do gnuplot $f; done",
              opt.plots ? "gnuplot not found" : "--no-plots", plots.c_str());
    }
    // The page of speedups and bounds (bench/report_page.h), which shows the
    // header of summary.txt.
    write_file(out / "summary.txt", log.kept());
    log.say("%s", write_report(out.string(), {out.string()}, opt.plots).c_str());
    log.say("results: %s (report.html, results.csv, %sgbench.json, summary.txt, plots/)", out.c_str(),
            opt.lower_bound ? "lower_bound.csv, " : "");
    log.say("finished in %.0f s (load average now: %s)", MPI_Wtime() - began, load_average().c_str());
    write_file(out / "summary.txt", log.kept());
  }

  free_impls(&impls);
  PMPI_Comm_free(&ctrl);
  return 0;
}

}  // namespace
}  // namespace hcbench

int main(int argc, char** argv) {
  // --overlap switches hiercoll's progress thread on and off, which needs
  // MPI_THREAD_MULTIPLE; the other studies keep MPI's default level.
  const bool overlap = std::any_of(argv + 1, argv + argc, [](const char* a) { return std::string(a) == "--overlap"; });
  if (overlap) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  // Google Benchmark gets its own --benchmark_* flags only (it would take
  // --help for itself and exit); the rest are ours.
  std::vector<char*> gb_args = {argv[0]}, our_args = {argv[0]};
  for (int i = 1; i < argc; ++i)
    (std::string(argv[i]).rfind("--benchmark_", 0) == 0 ? gb_args : our_args).push_back(argv[i]);
  int gb_argc = static_cast<int>(gb_args.size());
  gb_args.push_back(nullptr);
  benchmark::Initialize(&gb_argc, gb_args.data());
  const int rc = hcbench::run(static_cast<int>(our_args.size()), our_args.data());
  MPI_Finalize();
  return rc;
}
