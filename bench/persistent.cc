#include "bench/persistent.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

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

}  // namespace

int run_persistent(const Options& given, MPI_Comm ctrl, const Machine& machine, const std::string& out, Log& log) {
  int rank, size;
  PMPI_Comm_rank(ctrl, &rank);
  PMPI_Comm_size(ctrl, &size);
  const Options defaults;
  const std::vector<std::string> ops =
      given.ops == defaults.ops
          ? std::vector<std::string>{"allreduce", "bcast", "gatherv", "alltoallv", "reduce", "allgather", "barrier"}
          : given.ops;

  ImplSpec hier_spec, native_spec;
  std::string error;
  parse_impl("hier", &hier_spec, &error);
  parse_impl("native", &native_spec, &error);
  std::vector<Impl> impls;
  if (!create_impls({hier_spec, native_spec}, ctrl, &impls, &error)) {
    log.say("hiercoll_bench: %s", error.c_str());
    return 2;
  }
  const Impl& hier = impls[0];
  const Impl& native = impls[1];
  std::string model_error;
  const LinkModel link_model = link_model_from_env(&model_error);
  log.say("persistent study: %d ranks; link model: %s", size, describe_link_model(link_model).c_str());
  log.say("hier/native: persistent request made once (MPIX_/PMPIX_<op>_init), each call MPI_Start + MPI_Wait;"
          " -blocking: MPI_<op> / PMPI_<op>");
  log.say("new data before every call; rooted ops from root 0; v-variants' blocks: %s; times: median over reps of"
          " the slowest rank (sync %s)",
          given.counts.name().c_str(), given.sync.c_str());
  SyncClock clock(ctrl, given.sync == "barrier", machine.oversubscribed);

  std::vector<CsvRow> rows;
  std::ofstream pcsv;
  if (rank == 0) {
    pcsv.open(out + "/persistent.csv");
    pcsv << "op,bytes,reps,hier_persistent_us,native_persistent_us,hier_blocking_us,native_blocking_us,"
            "hier_init_us,native_init_us\n";
  }
  for (const std::string& name : ops) {
    const OpInfo& op = *find_op(name);
    const std::string row_op = name + "_init";
    std::vector<int64_t> op_sizes;
    for (int64_t s : given.sizes) op_sizes.push_back(effective_bytes(op, s));
    std::sort(op_sizes.begin(), op_sizes.end());
    op_sizes.erase(std::unique(op_sizes.begin(), op_sizes.end()), op_sizes.end());
    log.say("\n%-16s %7s %5s %10s %10s %10s %10s | %-24s | %s", row_op.c_str(), "bytes", "reps", "hier µs", "native",
            "hier-blk", "native-blk", "time / hier's", "init µs");
    log.say("%-16s %7s %5s %10s %10s %10s %10s | %7s %8s %7s | %8s %8s", "", "", "", "", "", "", "", "native",
            "hier-blk", "nat-blk", "hier", "native");
    for (int64_t bytes : op_sizes) {
      if (largest_buffer(op, bytes, size) > given.max_buffer) {
        log.say("%-16s %7lld  skipped: needs %s per rank (--max-buffer)", "", (long long)bytes,
                format_size(largest_buffer(op, bytes, size)).c_str());
        continue;
      }
      OpBuffers b = make_buffers(op, bytes, size, rank, given.counts);
      std::vector<Variant> vs = {
          {"hier", &hier, true}, {"native", &native, true}, {"hier-blocking", &hier, false},
          {"native-blocking", &native, false}};
      clock.resync();
      init_requests(vs, op, b, clock, ctrl);
      const PointTimes t = measure_point(vs, op, b, given, clock, ctrl);
      free_requests(vs);
      const double h = t.summary[0].median;
      log.say("%-16s %7lld %5d %10.1f %10.1f %10.1f %10.1f | %7s %8s %7s | %8.0f %8.0f", "", (long long)bytes, t.reps,
              h, t.summary[1].median, t.summary[2].median, t.summary[3].median,
              ratio_text(t.summary[1].median, h).c_str(), ratio_text(t.summary[2].median, h).c_str(),
              ratio_text(t.summary[3].median, h).c_str(), vs[0].init_us, vs[1].init_us);
      for (size_t i = 0; i < vs.size(); ++i)
        if (t.wrong[i]) log.say("WARNING: %s gave a WRONG result for %s %lld", vs[i].name, row_op.c_str(),
                                (long long)bytes);
      if (rank != 0) continue;
      char line[512];
      std::snprintf(line, sizeof line, "%s,%lld,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", row_op.c_str(),
                    (long long)bytes, t.reps, h, t.summary[1].median, t.summary[2].median, t.summary[3].median,
                    vs[0].init_us, vs[1].init_us);
      pcsv << line;
      for (size_t i = 0; i < vs.size(); ++i) {
        CsvRow r;
        r.op = row_op;
        r.bytes = bytes;
        r.nodes = machine.layout.nodes;
        r.ppn = machine.layout.ppn_string();
        r.impl = vs[i].name;
        r.algorithm = vs[i].algorithm;
        r.median_us = t.summary[i].median;
        r.min_us = t.summary[i].min;
        r.max_us = t.summary[i].max;
        r.reps = t.summary[i].n;
        rows.push_back(r);
      }
    }
  }
  if (rank == 0) {
    std::ofstream csv(out + "/results.csv");
    write_csv(csv, rows);
  }
  log.say("\ntime / hier's: each one's median / hier persistent's (above 1: hier persistent is faster); files: "
          "%s/persistent.csv, %s/results.csv",
          out.c_str(), out.c_str());
  free_impls(&impls);
  return 0;
}

}  // namespace hcbench
