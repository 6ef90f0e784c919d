#include "bench/persistent.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "bench/study.h"
#include "bench/timing_loop.h"
#include "measure/calls.h"
#include "measure/clock.h"
#include "measure/csv.h"
#include "measure/impls.h"
#include "measure/link_model.h"
#include "measure/ops.h"
#include "measure/sizes.h"
#include "measure/stats.h"
#include "runtime/stats.h"

namespace hcbench {

namespace {

// One of the four ways of running the call.
struct Variant {
  Variant(const char* n, const Impl* i, bool p) : name(n), impl(i), persistent(p) {}
  const char* name;  // results.csv's impl
  const Impl* impl;
  bool persistent;
  MPI_Request request = MPI_REQUEST_NULL;  // persistent: made once per point
  std::string algorithm;
  double init_us = NAN;  // persistent: the init call, slowest rank
};

// New contents at the same addresses before call k, as an application
// writes its data before each start (small whole floats for reductions:
// exact sums, no denormals).
void refresh(const OpInfo& op, OpBuffers& b, long k) {
  std::vector<char>& data = op.op == BenchOp::kBcast ? b.recv : b.send;
  if (op.reduction) {
    float* f = reinterpret_cast<float*>(data.data());
    std::fill(f, f + data.size() / sizeof(float), static_cast<float>(k % 7 + 1));
  } else {
    std::memset(data.data(), static_cast<int>(k & 0xff), data.size());
  }
}

// One call of v from a synchronized start; this rank's time in µs.
double timed_call(Variant& v, const OpInfo& op, OpBuffers& b, SyncClock& clock) {
  const double t0 = clock.start();
  if (!v.persistent) {
    call_op(op, v.impl->via_hiercoll, b, 0, v.impl->comm);
  } else if (v.impl->via_hiercoll) {
    MPI_Start(&v.request);
    MPI_Wait(&v.request, MPI_STATUS_IGNORE);
  } else {  // Open MPI's request, around hiercoll's MPI_Start and MPI_Wait
    PMPI_Start(&v.request);
    PMPI_Wait(&v.request, MPI_STATUS_IGNORE);
  }
  return (clock.stop() - t0) * 1e6;
}

// Makes the persistent variants' requests (timed: the slowest rank's).
void init_requests(std::vector<Variant>& vs, const OpInfo& op, OpBuffers& b, SyncClock& clock, MPI_Comm ctrl) {
  for (Variant& v : vs) {
    if (!v.persistent) continue;
    const double t0 = clock.start();
    init_op(op, v.impl->via_hiercoll, b, 0, v.impl->comm, &v.request);
    const double mine = (clock.stop() - t0) * 1e6;
    PMPI_Allreduce(&mine, &v.init_us, 1, MPI_DOUBLE, MPI_MAX, ctrl);
    // hiercoll decides at init; Open MPI's persistent collectives are libnbc's.
    v.algorithm = v.impl->via_hiercoll ? hiercoll::last_algorithm() : "ompi:pcollreq";
  }
}

void free_requests(std::vector<Variant>& vs) {
  for (Variant& v : vs) {
    if (!v.persistent) continue;
    if (v.impl->via_hiercoll) MPI_Request_free(&v.request);
    else PMPI_Request_free(&v.request);
  }
}

struct PointTimes {
  int reps = 0;
  std::vector<Summary> summary;  // per variant, of the slowest rank's times (rank 0)
  std::vector<bool> wrong;       // per variant, its checked call
};

// Warm-up (the last round checked), then the repetitions, the variants
// taking turns (rotated per repetition), new data before every call.
PointTimes measure_point(std::vector<Variant>& vs, const OpInfo& op, OpBuffers& b, const Options& opt,
                         SyncClock& clock, MPI_Comm ctrl) {
  int rank, size;
  PMPI_Comm_rank(ctrl, &rank);
  PMPI_Comm_size(ctrl, &size);
  const int n = static_cast<int>(vs.size());
  const int warmups = std::max(opt.warmup, 1);
  std::vector<double> estimate(n, 0);
  std::vector<int> wrong(n, 0);
  long calls = 0;
  for (int w = 0; w < warmups; ++w)
    for (int i = 0; i < n; ++i) {
      const bool check = opt.check && w == warmups - 1;
      if (check) fill_for_check(op, b, rank, size, 0);
      else refresh(op, b, ++calls);
      estimate[i] = timed_call(vs[i], op, b, clock);
      if (check && !verify(op, b, rank, size, 0)) wrong[i] = 1;
      if (!vs[i].persistent) vs[i].algorithm = vs[i].impl->algorithm(op);
    }
  PointTimes out;
  out.reps = repetitions(opt, estimate, 1, clock, ctrl);
  std::vector<double> times(static_cast<size_t>(n) * out.reps);  // [variant * reps + k]
  for (int k = 0; k < out.reps; ++k)
    for (int j = 0; j < n; ++j) {
      const int i = (j + k) % n;
      refresh(op, b, ++calls);
      times[static_cast<size_t>(i) * out.reps + k] = timed_call(vs[i], op, b, clock);
    }
  std::vector<double> slowest(times.size());
  PMPI_Reduce(times.data(), slowest.data(), static_cast<int>(times.size()), MPI_DOUBLE, MPI_MAX, 0, ctrl);
  std::vector<int> any_wrong(n);
  PMPI_Allreduce(wrong.data(), any_wrong.data(), n, MPI_INT, MPI_MAX, ctrl);
  for (int i = 0; i < n; ++i) {
    const auto first = slowest.begin() + static_cast<long>(i) * out.reps;
    out.summary.push_back(summarize(std::vector<double>(first, first + out.reps)));
    out.wrong.push_back(any_wrong[i] != 0);
  }
  return out;
}

// "1.23" (time / hier persistent's), "-" when unknown.
std::string ratio_text(double a, double hier) {
  if (!(a > 0 && hier > 0)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", a / hier);
  return buf;
}

// What the study runs on: the options, the job, hier's and native's
// communicators, the clock; and where its figures go: the console, and on
// rank 0 persistent.csv and results.csv's rows.
struct PersistentStudy {
  const Options& opt;
  const Machine& machine;
  MPI_Comm ctrl;
  int rank = 0, size = 1;
  const Impl* hier = nullptr;
  const Impl* native = nullptr;
  SyncClock* clock = nullptr;
  Log& log;
  std::ofstream csv;
  std::vector<CsvRow> rows;
};

void say_header(const PersistentStudy& s) {
  std::string model_error;
  const LinkModel link_model = link_model_from_env(&model_error);
  s.log.say("persistent study: %d ranks; link model: %s", s.size, describe_link_model(link_model).c_str());
  s.log.say("hier/native: persistent request made once (MPIX_/PMPIX_<op>_init), each call MPI_Start + MPI_Wait;"
            " -blocking: MPI_<op> / PMPI_<op>");
  s.log.say("new data before every call; rooted ops from root 0; v-variants' blocks: %s; times: median over reps of"
            " the slowest rank (sync %s)",
            s.opt.counts.name().c_str(), s.opt.sync.c_str());
}

void say_op_header(const PersistentStudy& s, const std::string& row_op) {
  s.log.say("\n%-16s %7s %5s %10s %10s %10s %10s | %-24s | %s", row_op.c_str(), "bytes", "reps", "hier µs", "native",
            "hier-blk", "native-blk", "time / hier's", "init µs");
  s.log.say("%-16s %7s %5s %10s %10s %10s %10s | %7s %8s %7s | %8s %8s", "", "", "", "", "", "", "", "native",
            "hier-blk", "nat-blk", "hier", "native");
}

// One point's line, its warnings, and on rank 0 its persistent.csv line
// and results.csv rows.
void report_point(PersistentStudy& s, const std::string& row_op, int64_t bytes, const std::vector<Variant>& vs,
                  const PointTimes& t) {
  const double h = t.summary[0].median;
  s.log.say("%-16s %7lld %5d %10.1f %10.1f %10.1f %10.1f | %7s %8s %7s | %8.0f %8.0f", "", (long long)bytes, t.reps,
            h, t.summary[1].median, t.summary[2].median, t.summary[3].median,
            ratio_text(t.summary[1].median, h).c_str(), ratio_text(t.summary[2].median, h).c_str(),
            ratio_text(t.summary[3].median, h).c_str(), vs[0].init_us, vs[1].init_us);
  for (size_t i = 0; i < vs.size(); ++i)
    if (t.wrong[i])
      s.log.say("WARNING: %s gave a WRONG result for %s %lld", vs[i].name, row_op.c_str(), (long long)bytes);
  if (s.rank != 0) return;
  char line[512];
  std::snprintf(line, sizeof line, "%s,%lld,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", row_op.c_str(), (long long)bytes,
                t.reps, h, t.summary[1].median, t.summary[2].median, t.summary[3].median, vs[0].init_us,
                vs[1].init_us);
  s.csv << line;
  for (size_t i = 0; i < vs.size(); ++i) {
    CsvRow r = summary_row(row_op, bytes, vs[i].name, t.summary[i]);
    r.nodes = s.machine.layout.nodes;
    r.ppn = s.machine.layout.ppn_string();
    r.algorithm = vs[i].algorithm;
    s.rows.push_back(r);
  }
}

// One point: the four variants' requests made, measured and freed.
void study_point(PersistentStudy& s, const OpInfo& op, const std::string& row_op, int64_t bytes) {
  OpBuffers b = make_buffers(op, bytes, s.size, s.rank, s.opt.counts);
  std::vector<Variant> vs = {{"hier", s.hier, true},
                             {"native", s.native, true},
                             {"hier-blocking", s.hier, false},
                             {"native-blocking", s.native, false}};
  s.clock->resync();
  init_requests(vs, op, b, *s.clock, s.ctrl);
  const PointTimes t = measure_point(vs, op, b, s.opt, *s.clock, s.ctrl);
  free_requests(vs);
  report_point(s, row_op, bytes, vs, t);
}

void study_op(PersistentStudy& s, const OpInfo& op) {
  const std::string row_op = std::string(op.name) + "_init";
  say_op_header(s, row_op);
  for (int64_t bytes : distinct_sizes(op, s.opt.sizes)) {
    if (largest_buffer(op, bytes, s.size) > s.opt.max_buffer) {
      s.log.say("%-16s %7lld  skipped: needs %s per rank (--max-buffer)", "", (long long)bytes,
                format_size(largest_buffer(op, bytes, s.size)).c_str());
      continue;
    }
    study_point(s, op, row_op, bytes);
  }
}

}  // namespace

int run_persistent(const Options& given, MPI_Comm ctrl, const Machine& machine, const std::string& out, Log& log) {
  const Options defaults;
  const std::vector<std::string> ops =
      given.ops == defaults.ops
          ? std::vector<std::string>{"allreduce", "bcast", "gatherv", "alltoallv", "reduce", "allgather", "barrier"}
          : given.ops;
  std::vector<Impl> impls;
  if (!make_hier_and_native(ctrl, &impls, log)) return 2;
  PersistentStudy s{given, machine, ctrl, 0, 1, &impls[0], &impls[1], nullptr, log, {}, {}};
  PMPI_Comm_rank(ctrl, &s.rank);
  PMPI_Comm_size(ctrl, &s.size);
  say_header(s);
  SyncClock clock(ctrl, given.sync == "barrier", machine.oversubscribed);
  s.clock = &clock;
  if (s.rank == 0) {
    s.csv.open(out + "/persistent.csv");
    s.csv << "op,bytes,reps,hier_persistent_us,native_persistent_us,hier_blocking_us,native_blocking_us,"
             "hier_init_us,native_init_us\n";
  }
  for (const std::string& name : ops) study_op(s, *find_op(name));
  if (s.rank == 0) {
    std::ofstream csv(out + "/results.csv");
    write_csv(csv, s.rows);
  }
  log.say("\ntime / hier's: each one's median / hier persistent's (above 1: hier persistent is faster); files: "
          "%s/persistent.csv, %s/results.csv",
          out.c_str(), out.c_str());
  free_impls(&impls);
  return 0;
}

}  // namespace hcbench
