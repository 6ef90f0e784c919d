// hiercoll_bench: hiercoll's hierarchical and flat collectives against Open
// MPI's own (coll/tuned) and Open MPI's hierarchical component (HAN), in one
// job, interleaved. See docs/BENCHMARK.md.
#include <mpi.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/log.h"
#include "bench/options.h"
#include "bench/overlap.h"
#include "bench/persistent.h"
#include "bench/report.h"
#include "bench/run_header.h"
#include "bench/run_outputs.h"
#include "bench/run_text.h"
#include "bench/timing_loop.h"
#include "hiercoll_version.h"
#include "measure/calls.h"
#include "measure/clock.h"
#include "measure/impls.h"
#include "measure/link_model.h"
#include "measure/machine.h"
#include "measure/ops.h"
#include "measure/pingpong.h"
#include "measure/roots.h"
#include "measure/sizes.h"

namespace hcbench {
namespace {

namespace fs = std::filesystem;

// The output folder, made by rank 0 (with plots/); false on every rank
// when it cannot be.
bool make_output_dir(const Options& opt, const Machine& machine, MPI_Comm ctrl, fs::path* out) {
  int rank;
  PMPI_Comm_rank(ctrl, &rank);
  std::error_code cwd_error;
  *out = fs::absolute(
      opt.out.empty() ? fs::path("results") / (timestamp("%Y%m%d-%H%M%S") + "-" + machine.layout.short_name())
                      : fs::path(opt.out),
      cwd_error);
  int ok = 1;
  if (rank == 0) {
    std::error_code ec;
    fs::create_directories(*out / "plots", ec);
    if (ec) {
      std::fprintf(stderr, "hiercoll_bench: cannot create %s: %s\n", (*out / "plots").c_str(), ec.message().c_str());
      ok = 0;
    }
  }
  PMPI_Bcast(&ok, 1, MPI_INT, 0, ctrl);
  return ok != 0;
}

// --overlap and --persistent: studies with tables and files of their own.
int run_study(const Options& opt, MPI_Comm ctrl, const Machine& machine, const fs::path& out, Log& log) {
  log.say("hiercoll benchmark %s %s, %s", HIERCOLL_VERSION, opt.overlap ? "--overlap" : "--persistent",
          timestamp("%Y-%m-%d %H:%M:%S").c_str());
  log.say("layout: %s; load average at start: %s", machine.header().c_str(), load_average().c_str());
  const int rc =
      opt.overlap ? run_overlap(opt, ctrl, out.string(), log) : run_persistent(opt, ctrl, machine, out.string(), log);
  int rank;
  PMPI_Comm_rank(ctrl, &rank);
  if (rank == 0) std::ofstream(out / "summary.txt") << log.kept();
  return rc;
}

// The points in order: every operation's sizes (effective bytes, each once),
// those past --max-buffer left out with a note.
std::vector<Point> list_points(const Options& opt, const std::vector<const OpInfo*>& ops,
                               const std::vector<int>& roots, int ranks, Log& log) {
  std::vector<Point> points;
  for (const OpInfo* op : ops) {
    std::vector<int64_t> sizes;
    if (!op->sized) sizes.push_back(0);
    for (int64_t b : opt.sizes)
      if (op->sized) sizes.push_back(effective_bytes(*op, b));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (int64_t b : sizes) {
      if (largest_buffer(*op, b, ranks) > opt.max_buffer) {
        log.say("note: %s %s: skipped, needs %s per rank (--max-buffer)", op->name, format_size(b).c_str(),
                format_size(largest_buffer(*op, b, ranks)).c_str());
        continue;
      }
      points.push_back({op, b, op->rooted ? roots : std::vector<int>{-1}});
    }
  }
  return points;
}

// "[ 3/12] allreduce  64K: 12 reps, 1.2 s | hier 101.5 native 130.2 µs".
std::string point_line(size_t k, size_t n, const Point& p, const PointOutcome& o, bool lateness) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "[%2zu/%zu] %-9s %5s: ", k + 1, n, p.op->name,
                p.op->sized ? format_size(p.bytes).c_str() : "-");
  std::string line = buf;
  if (p.op->rooted) line += std::to_string(p.roots.size()) + " roots x ";
  std::snprintf(buf, sizeof buf, "%d reps, %4.1f s |", o.reps, o.seconds);
  line += buf;
  for (size_t i = 0; i < o.impls.size(); ++i) line += " " + o.impls[i] + " " + format_us(o.median_us[i]);
  line += " µs";
  if (lateness && o.lateness_us >= 1) {
    std::snprintf(buf, sizeof buf, " | start lateness %.0f µs", o.lateness_us);
    line += buf;
  }
  return line;
}

// Measures every point, saying each as it ends and each operation's table
// after its last point; then the lower-bound table, lateness and warnings.
void run_points(const Options& opt, const std::vector<Point>& points, Runner& runner, const std::vector<Impl>& impls,
                const std::vector<std::string>& impl_names, const Links& links, int nodes, Results* results, Log& log) {
  std::vector<std::string> warnings;
  long calls = 0;
  double late_weighted = 0;
  for (size_t k = 0; k < points.size(); ++k) {
    const Point& p = points[k];
    const PointOutcome o = runner.run(p, results);
    calls += o.calls;
    late_weighted += o.lateness_us * o.calls;
    log.say("%s", point_line(k, points.size(), p, o, opt.sync == "time").c_str());
    for (const std::string& s : o.skipped) log.say("         skipped %s", s.c_str());
    if (log.active()) {  // rank 0 holds the results
      for (const Impl& i : impls) {
        const std::string note = i.forced_note(*p.op, results->algorithm(p.op->name, p.bytes, i.spec.name));
        if (!note.empty()) log.say("         note: %s", note.c_str());
      }
    }
    for (const std::string& w : o.wrong) {
      warnings.push_back(w + " gave a WRONG result for " + p.op->name + " " + format_size(p.bytes));
      log.say("         WARNING: %s", warnings.back().c_str());
    }
    if (k + 1 == points.size() || points[k + 1].op != p.op)
      log.text("\n" + op_table(*results, p.op->name, p.op->rooted, impl_names) + "\n");
  }
  if (opt.lower_bound) {
    const std::string lb = lower_bound_table(*results, links, nodes, opt.ops);
    if (!lb.empty()) log.text(lb + "\n");
  }
  if (calls > 0 && opt.sync == "time")
    log.say("start lateness: a rank got going %.0f µs after the common start on average (part of the times)",
            late_weighted / calls);
  for (const std::string& w : warnings) log.say("WARNING: %s", w.c_str());
}

// The comparison run: implementations side by side, interleaved, point by
// point.
int run_comparison(const Options& opt, MPI_Comm ctrl, const Machine& machine, const fs::path& out, double began,
                   Log& log) {
  int rank, size;
  PMPI_Comm_rank(ctrl, &rank);
  PMPI_Comm_size(ctrl, &size);
  std::vector<const OpInfo*> ops;
  for (const std::string& name : opt.ops) ops.push_back(find_op(name));
  std::vector<Impl> impls;
  std::string error;
  if (!create_impls(opt.impls, ctrl, &impls, &error)) {
    if (rank == 0) std::fprintf(stderr, "hiercoll_bench: %s\n", error.c_str());
    return 2;
  }
  std::vector<std::string> impl_names;
  for (const Impl& i : impls) impl_names.push_back(i.spec.name);
  if (opt.skew.any()) impl_names.push_back("ideal");  // measure.cc adds its series

  RunHeader h{&opt, &machine, &impls, &ops};
  const LinkModel link_model = link_model_from_env(&h.link_model_error);
  const std::vector<int> roots = choose_roots(opt.roots, machine.node_of);
  h.link_model = &link_model;
  h.roots = &roots;
  say_run_header(h, log);
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

  const std::vector<Point> points = list_points(opt, ops, roots, size, log);
  Results results;
  Runner runner(opt, ctrl, &impls, &clock);
  run_points(opt, points, runner, impls, impl_names, links, machine.layout.nodes, &results, log);
  if (rank == 0)
    write_run_outputs({out.string(), &opt, &machine, &results, &links, &link_model, &ops, impl_names, size, began},
                      log);
  free_impls(&impls);
  return 0;
}

int run(int argc, char** argv) {
  int rank;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
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
  fs::path out;
  int rc = 1;
  if (make_output_dir(opt, machine, ctrl, &out))
    rc = opt.overlap || opt.persistent ? run_study(opt, ctrl, machine, out, log)
                                       : run_comparison(opt, ctrl, machine, out, began, log);
  PMPI_Comm_free(&ctrl);
  return rc;
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
