#include "bench/overlap.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>
#include <vector>

#include "bench/study.h"
#include "measure/calls.h"
#include "measure/csv.h"
#include "measure/impls.h"
#include "measure/ops.h"
#include "measure/stats.h"
#include "runtime/progress_thread.h"

namespace hcbench {

namespace {

// Computation: multiply-adds (real work on the core, which the progress
// thread competes for) until `us` microseconds of wall time have passed.
// Wall time, not a calibrated count: on the oversubscribed emulated cluster
// a calibration does not hold from one moment to the next.  With `sleep`
// (--overlap-work sleep) the rank sleeps instead, as one whose work runs
// elsewhere (an accelerator, I/O): the core is free for the progress thread,
// so the figure shows what the thread achieves when it is not starved.
double g_sink = 0;
void compute(double us, bool sleep) {
  const double end = MPI_Wtime() + us * 1e-6;
  if (sleep) {
    for (double left = us * 1e-6; left > 0; left = end - MPI_Wtime())
      std::this_thread::sleep_for(std::chrono::duration<double>(left));
    return;
  }
  double x = 1.0;
  do {
    for (int i = 0; i < 1000; ++i) {
      x = x * 0.999999 + 1e-6;
      asm volatile("" : "+x"(x));  // one multiply-add per iteration, never folded
    }
  } while (MPI_Wtime() < end);
  g_sink += x;
}

// One way of running a call, timed per repetition on this rank.
enum class Mode { kPure, kCompute, kComputeTest, kCpu, kBlocking };

struct Variant {
  const Impl* impl;
  bool thread;
  Mode mode;
  std::vector<double> us;    // per repetition, this rank's
  std::vector<double> busy;  // per repetition, this process's CPU time / wall time (all its threads)
};

double process_cpu_s() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// Returns the wall time in µs; *busy: the process's CPU time over it.
double run_once(const OpInfo& op, Variant& v, OpBuffers& b, double compute_us, bool sleep, MPI_Comm ctrl,
                double* busy) {
  const bool hc = v.impl->via_hiercoll;
  MPI_Request req = MPI_REQUEST_NULL;
  PMPI_Barrier(ctrl);
  const double cpu0 = process_cpu_s();
  const double t = MPI_Wtime();
  switch (v.mode) {
    case Mode::kBlocking: call_op(op, hc, b, 0, v.impl->comm); break;
    case Mode::kCpu: compute(compute_us, sleep); break;
    case Mode::kPure:
      start_op(op, hc, b, 0, v.impl->comm, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      break;
    case Mode::kCompute:
      start_op(op, hc, b, 0, v.impl->comm, &req);
      compute(compute_us, sleep);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      break;
    case Mode::kComputeTest: {
      start_op(op, hc, b, 0, v.impl->comm, &req);
      int flag = 0;
      for (int k = 0; k < 10; ++k) {
        compute(compute_us / 10, sleep);
        if (!flag) MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      }
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      break;
    }
  }
  const double wall = MPI_Wtime() - t;
  *busy = wall > 0 ? (process_cpu_s() - cpu0) / wall : NAN;
  return wall * 1e6;
}

// The ranks' mean CPU share per repetition, median over repetitions (%).
double mean_busy_pct(const std::vector<double>& mine, MPI_Comm ctrl) {
  int size = 1;
  PMPI_Comm_size(ctrl, &size);
  std::vector<double> sum(mine.size());
  PMPI_Allreduce(mine.data(), sum.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_SUM, ctrl);
  for (double& x : sum) x *= 100.0 / size;
  return summarize(sum).median;
}

// Each repetition's slowest rank, then the median over repetitions.
Summary slowest(const std::vector<double>& mine, MPI_Comm ctrl) {
  std::vector<double> all(mine.size());
  PMPI_Allreduce(mine.data(), all.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX, ctrl);
  return summarize(all);
}

// Runs the variants `reps` times each, interleaved (variant order rotated
// per repetition), after two untimed calls each.
void run_variants(const OpInfo& op, std::vector<Variant*>& vs, OpBuffers& b, const std::vector<double>& compute_us,
                  int reps, bool sleep, MPI_Comm ctrl) {
  for (int rep = -2; rep < reps; ++rep) {
    for (size_t k = 0; k < vs.size(); ++k) {
      const size_t i = (k + std::max(rep, 0)) % vs.size();
      Variant& v = *vs[i];
      hiercoll::set_progress_thread(v.thread);
      double busy = 0;
      const double us = run_once(op, v, b, compute_us[i], sleep, ctrl, &busy);
      if (rep < 0) continue;
      v.us.push_back(us);
      v.busy.push_back(busy);
    }
  }
}

double overlap_pct(double total, double cpu, double pure) {
  if (!(pure > 0)) return NAN;
  return 100.0 * std::clamp(1.0 - (total - cpu) / pure, 0.0, 1.0);
}

// What the study runs: --ops and --sizes, or the study's own defaults.
struct OverlapPlan {
  std::vector<std::string> ops;
  std::vector<int64_t> sizes;
  int reps = 20;
};

OverlapPlan overlap_plan(const Options& given) {
  const Options defaults;
  OverlapPlan p;
  p.ops = given.ops == defaults.ops ? std::vector<std::string>{"allreduce", "bcast", "alltoall", "barrier"} : given.ops;
  p.sizes = given.sizes == defaults.sizes ? std::vector<int64_t>{8, 64 * 1024, 1024 * 1024} : given.sizes;
  if (given.reps > 0) p.reps = given.reps;
  return p;
}

// Every way the study runs a call: each implementation with and without
// the thread, each mode; hiercoll's blocking call once.
std::vector<Variant> all_variants(const std::vector<Impl>& impls, bool threads) {
  std::vector<Variant> all;
  for (const Impl& impl : impls)
    for (bool thread : {false, true}) {
      if (thread && !threads) continue;
      for (Mode m : {Mode::kPure, Mode::kCompute, Mode::kComputeTest, Mode::kCpu})
        all.push_back({&impl, thread, m, {}, {}});
      if (impl.via_hiercoll && !thread) all.push_back({&impl, false, Mode::kBlocking, {}, {}});
    }
  return all;
}

Variant& find_variant(std::vector<Variant>& all, const Impl* impl, bool thread, Mode m) {
  return *std::find_if(all.begin(), all.end(),
                       [&](const Variant& v) { return v.impl == impl && v.thread == thread && v.mode == m; });
}

// Pass 1: communication alone (pure and blocking), which sets each one's
// computation time; pass 2: computation, with and without it.
void run_passes(const OpInfo& op, std::vector<Variant>& all, OpBuffers& b, int reps, bool sleep, MPI_Comm ctrl) {
  std::vector<Variant*> pass1, pass2;
  for (Variant& v : all) (v.mode == Mode::kPure || v.mode == Mode::kBlocking ? pass1 : pass2).push_back(&v);
  run_variants(op, pass1, b, std::vector<double>(pass1.size(), 0), reps, sleep, ctrl);
  std::vector<double> compute_us;
  for (Variant* v : pass2)
    compute_us.push_back(slowest(find_variant(all, v->impl, v->thread, Mode::kPure).us, ctrl).median);
  run_variants(op, pass2, b, compute_us, reps, sleep, ctrl);
}

// One implementation's figures at one point, with or without the thread
// (collective: every rank gets them).
struct OverlapFigures {
  Summary pure, comp, test, cpu, blocking{NAN, NAN, NAN, 0};
  double ov = 0, ovt = 0;  // overlap %, without and with MPI_Test
  double busy_pure = 0, busy_cpu = 0, busy_comp = 0;
};

OverlapFigures figures_of(std::vector<Variant>& all, const Impl& impl, bool thread, MPI_Comm ctrl) {
  OverlapFigures f;
  f.pure = slowest(find_variant(all, &impl, thread, Mode::kPure).us, ctrl);
  f.comp = slowest(find_variant(all, &impl, thread, Mode::kCompute).us, ctrl);
  f.test = slowest(find_variant(all, &impl, thread, Mode::kComputeTest).us, ctrl);
  f.cpu = slowest(find_variant(all, &impl, thread, Mode::kCpu).us, ctrl);
  if (impl.via_hiercoll && !thread) f.blocking = slowest(find_variant(all, &impl, false, Mode::kBlocking).us, ctrl);
  f.ov = overlap_pct(f.comp.median, f.cpu.median, f.pure.median);
  f.ovt = overlap_pct(f.test.median, f.cpu.median, f.pure.median);
  f.busy_pure = mean_busy_pct(find_variant(all, &impl, thread, Mode::kPure).busy, ctrl);
  f.busy_cpu = mean_busy_pct(find_variant(all, &impl, thread, Mode::kCpu).busy, ctrl);
  f.busy_comp = mean_busy_pct(find_variant(all, &impl, thread, Mode::kCompute).busy, ctrl);
  return f;
}

// Where the study's figures go: the console (every rank's Log; rank 0's
// prints), and on rank 0 overlap.csv and results.csv's rows.
struct OverlapOutput {
  Log& log;
  int rank;
  std::ofstream csv;
  std::vector<CsvRow> rows;
};

void report_figures(OverlapOutput& o, const OpInfo& op, int64_t bytes, const Impl& impl, bool thread,
                    const OverlapFigures& f) {
  const std::string label = impl.spec.name + (thread ? "+thread" : "");
  o.log.say("%-10s %7lld  %-14s %10.1f %10.1f %10.1f %10.1f %10.1f %7.0f%% %7.0f%% %8.0f/%3.0f/%3.0f", "",
            (long long)bytes, label.c_str(), f.pure.median, f.blocking.median, f.comp.median, f.test.median,
            f.cpu.median, f.ov, f.ovt, f.busy_pure, f.busy_cpu, f.busy_comp);
  if (o.rank != 0) return;
  char line[512];
  std::snprintf(line, sizeof line, "i%s,%lld,%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f,%.1f,%.1f,%.1f\n", op.name,
                (long long)bytes, impl.spec.name.c_str(), thread ? 1 : 0, f.pure.median, f.blocking.median,
                f.comp.median, f.test.median, f.cpu.median, f.ov, f.ovt, f.busy_pure, f.busy_cpu, f.busy_comp);
  o.csv << line;
  // results.csv: times, so that hiercoll_bench_jobs gives each one's ratio
  // to hier's over jobs.
  const std::string iop = std::string("i") + op.name;
  o.rows.push_back(summary_row(iop, bytes, label, f.pure));
  o.rows.push_back(summary_row(iop + "+compute", bytes, label, f.comp));
  if (impl.via_hiercoll && !thread) o.rows.push_back(summary_row(iop, bytes, "hier-blocking", f.blocking));
}

// One operation at every size: every variant measured, then each
// implementation's figures reported.
void study_op(const OpInfo& op, const OverlapPlan& plan, const std::vector<Impl>& impls, bool threads, bool sleep,
              MPI_Comm ctrl, OverlapOutput& out) {
  int size = 1;
  PMPI_Comm_size(ctrl, &size);
  out.log.say("\ni%-9s %7s  %-14s %10s %10s %10s %10s %10s %8s %8s %20s", op.name, "bytes", "impl", "pure µs",
              "blocking", "+compute", "+comp+test", "cpu", "overlap", "(test)", "busy% pure/cpu/+comp");
  for (int64_t bytes : distinct_sizes(op, plan.sizes)) {
    OpBuffers b = make_buffers(op, bytes, size);
    std::vector<Variant> all = all_variants(impls, threads);
    run_passes(op, all, b, plan.reps, sleep, ctrl);
    for (const Impl& impl : impls)
      for (bool thread : {false, true}) {
        if (thread && !threads) continue;
        report_figures(out, op, bytes, impl, thread, figures_of(all, impl, thread, ctrl));
      }
  }
}

}  // namespace

int run_overlap(const Options& given, MPI_Comm ctrl, const std::string& out, Log& log) {
  int rank, size;
  PMPI_Comm_rank(ctrl, &rank);
  PMPI_Comm_size(ctrl, &size);
  const OverlapPlan plan = overlap_plan(given);
  for (const std::string& o : plan.ops)
    if (o != "allreduce" && o != "bcast" && o != "alltoall" && o != "barrier") {
      log.say("hiercoll_bench --overlap: operation %s is not one of allreduce,bcast,alltoall,barrier", o.c_str());
      return 2;
    }
  std::vector<Impl> impls;
  if (!make_hier_and_native(ctrl, &impls, log)) return 2;
  // Whether the thread can run here (MPI_THREAD_MULTIPLE); off until measured.
  const bool threads = hiercoll::set_progress_thread(true);
  hiercoll::set_progress_thread(false);
  log.say("overlap study: %d ranks; reps %d; progress thread %s", size, plan.reps,
          threads ? "measured on and off" : "NOT measured (needs MPI_THREAD_MULTIPLE)");
  log.say("computation: %s for the pure time (wall clock); bcast from root 0; times: median over reps of the slowest rank",
          given.overlap_sleep ? "a sleep (--overlap-work sleep)" : "multiply-adds");
  OverlapOutput output{log, rank, {}, {}};
  if (rank == 0) {
    output.csv.open(out + "/overlap.csv");
    output.csv << "op,bytes,impl,thread,pure_us,blocking_us,compute_us,compute_test_us,cpu_us,overlap_pct,"
                  "overlap_test_pct,pure_busy_pct,cpu_busy_pct,compute_busy_pct\n";
  }
  for (const std::string& name : plan.ops)
    study_op(*find_op(name), plan, impls, threads, given.overlap_sleep, ctrl, output);
  hiercoll::set_progress_thread(false);
  if (rank == 0) {
    std::ofstream csv(out + "/results.csv");
    write_csv(csv, output.rows);
  }
  log.say("\noverlap: 100 * (1 - (compute - cpu) / pure); files: %s/overlap.csv, %s/results.csv", out.c_str(),
          out.c_str());
  free_impls(&impls);
  return 0;
}

}  // namespace hcbench
