#include "bench/overlap.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>
#include <vector>

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

}  // namespace

int run_overlap(const Options& given, MPI_Comm ctrl, const std::string& out, Log& log) {
  int rank, size;
  PMPI_Comm_rank(ctrl, &rank);
  PMPI_Comm_size(ctrl, &size);
  const Options defaults;
  std::vector<std::string> ops = given.ops == defaults.ops
                                     ? std::vector<std::string>{"allreduce", "bcast", "alltoall", "barrier"}
                                     : given.ops;
  std::vector<int64_t> sizes =
      given.sizes == defaults.sizes ? std::vector<int64_t>{8, 64 * 1024, 1024 * 1024} : given.sizes;
  const int reps = given.reps > 0 ? given.reps : 20;
  for (const std::string& o : ops)
    if (o != "allreduce" && o != "bcast" && o != "alltoall" && o != "barrier") {
      log.say("hiercoll_bench --overlap: operation %s is not one of allreduce,bcast,alltoall,barrier", o.c_str());
      return 2;
    }

  ImplSpec hier, native;
  std::string error;
  parse_impl("hier", &hier, &error);
  parse_impl("native", &native, &error);
  std::vector<Impl> impls;
  if (!create_impls({hier, native}, ctrl, &impls, &error)) {
    log.say("hiercoll_bench: %s", error.c_str());
    return 2;
  }
  // Whether the thread can run here (MPI_THREAD_MULTIPLE); off until measured.
  const bool threads = hiercoll::set_progress_thread(true);
  hiercoll::set_progress_thread(false);
  log.say("overlap study: %d ranks; reps %d; progress thread %s", size, reps,
          threads ? "measured on and off" : "NOT measured (needs MPI_THREAD_MULTIPLE)");
  log.say("computation: %s for the pure time (wall clock); bcast from root 0; times: median over reps of the slowest rank",
          given.overlap_sleep ? "a sleep (--overlap-work sleep)" : "multiply-adds");

  std::vector<CsvRow> rows;
  std::ofstream ocsv;
  if (rank == 0) {
    ocsv.open(out + "/overlap.csv");
    ocsv << "op,bytes,impl,thread,pure_us,blocking_us,compute_us,compute_test_us,cpu_us,overlap_pct,"
            "overlap_test_pct,pure_busy_pct,cpu_busy_pct,compute_busy_pct\n";
  }
  for (const std::string& name : ops) {
    const OpInfo& op = *find_op(name);
    std::vector<int64_t> op_sizes;
    for (int64_t s : sizes) op_sizes.push_back(op.sized ? effective_bytes(op, s) : 0);
    std::sort(op_sizes.begin(), op_sizes.end());
    op_sizes.erase(std::unique(op_sizes.begin(), op_sizes.end()), op_sizes.end());
    log.say("\ni%-9s %7s  %-14s %10s %10s %10s %10s %10s %8s %8s %20s", op.name, "bytes", "impl", "pure µs",
            "blocking", "+compute", "+comp+test", "cpu", "overlap", "(test)", "busy% pure/cpu/+comp");
    for (int64_t bytes : op_sizes) {
      OpBuffers b = make_buffers(op, bytes, size);
      std::vector<Variant> all;
      for (const Impl& impl : impls)
        for (bool thread : {false, true}) {
          if (thread && !threads) continue;
          for (Mode m : {Mode::kPure, Mode::kCompute, Mode::kComputeTest, Mode::kCpu})
            all.push_back({&impl, thread, m, {}, {}});
          if (impl.via_hiercoll && !thread) all.push_back({&impl, false, Mode::kBlocking, {}, {}});
        }
      // Pass 1: communication alone (pure and blocking), which sets each
      // one's computation time; pass 2: computation, with and without it.
      std::vector<Variant*> pass1, pass2;
      for (Variant& v : all) (v.mode == Mode::kPure || v.mode == Mode::kBlocking ? pass1 : pass2).push_back(&v);
      run_variants(op, pass1, b, std::vector<double>(pass1.size(), 0), reps, given.overlap_sleep, ctrl);
      auto find = [&](const Impl* impl, bool thread, Mode m) -> Variant& {
        return *std::find_if(all.begin(), all.end(), [&](const Variant& v) {
          return v.impl == impl && v.thread == thread && v.mode == m;
        });
      };
      std::vector<double> compute_us;
      for (Variant* v : pass2) compute_us.push_back(slowest(find(v->impl, v->thread, Mode::kPure).us, ctrl).median);
      run_variants(op, pass2, b, compute_us, reps, given.overlap_sleep, ctrl);
      for (const Impl& impl : impls)
        for (bool thread : {false, true}) {
          if (thread && !threads) continue;
          const Summary pure = slowest(find(&impl, thread, Mode::kPure).us, ctrl);
          const Summary comp = slowest(find(&impl, thread, Mode::kCompute).us, ctrl);
          const Summary test = slowest(find(&impl, thread, Mode::kComputeTest).us, ctrl);
          const Summary cpu = slowest(find(&impl, thread, Mode::kCpu).us, ctrl);
          Summary blocking{NAN, NAN, NAN, 0};
          if (impl.via_hiercoll && !thread) blocking = slowest(find(&impl, false, Mode::kBlocking).us, ctrl);
          const std::string label = impl.spec.name + (thread ? "+thread" : "");
          const double ov = overlap_pct(comp.median, cpu.median, pure.median);
          const double ovt = overlap_pct(test.median, cpu.median, pure.median);
          const double busy_pure = mean_busy_pct(find(&impl, thread, Mode::kPure).busy, ctrl);
          const double busy_cpu = mean_busy_pct(find(&impl, thread, Mode::kCpu).busy, ctrl);
          const double busy_comp = mean_busy_pct(find(&impl, thread, Mode::kCompute).busy, ctrl);
          log.say("%-10s %7lld  %-14s %10.1f %10.1f %10.1f %10.1f %10.1f %7.0f%% %7.0f%% %8.0f/%3.0f/%3.0f", "",
                  (long long)bytes, label.c_str(), pure.median, blocking.median, comp.median, test.median, cpu.median,
                  ov, ovt, busy_pure, busy_cpu, busy_comp);
          if (rank != 0) continue;
          char line[512];
          std::snprintf(line, sizeof line, "i%s,%lld,%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f,%.1f,%.1f,%.1f\n",
                        op.name, (long long)bytes, impl.spec.name.c_str(), thread ? 1 : 0, pure.median,
                        blocking.median, comp.median, test.median, cpu.median, ov, ovt, busy_pure, busy_cpu,
                        busy_comp);
          ocsv << line;
          // results.csv: times, so that hiercoll_bench_jobs gives each one's
          // ratio to hier's over jobs.
          auto row = [&](const std::string& row_op, const std::string& row_impl, const Summary& s) {
            CsvRow r;
            r.op = row_op;
            r.bytes = bytes;
            r.nodes = 0;
            r.ppn = "";
            r.impl = row_impl;
            r.median_us = s.median;
            r.min_us = s.min;
            r.max_us = s.max;
            r.reps = s.n;
            rows.push_back(r);
          };
          row(std::string("i") + op.name, label, pure);
          row(std::string("i") + op.name + "+compute", label, comp);
          if (impl.via_hiercoll && !thread) row(std::string("i") + op.name, "hier-blocking", blocking);
        }
    }
  }
  hiercoll::set_progress_thread(false);
  if (rank == 0) {
    std::ofstream csv(out + "/results.csv");
    write_csv(csv, rows);
  }
  log.say("\noverlap: 100 * (1 - (compute - cpu) / pure); files: %s/overlap.csv, %s/results.csv", out.c_str(),
          out.c_str());
  free_impls(&impls);
  return 0;
}

}  // namespace hcbench
