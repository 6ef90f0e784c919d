#include "bench/options.h"

#include <cstdlib>

#include "cli/args.h"
#include "measure/ops.h"
#include "measure/sizes.h"

namespace hcbench {

namespace {

using hccli::Args;
using hccli::OptionRow;
using hccli::set;
using hccli::split_list;

bool parse_int(const std::string& s, long long lo, long long hi, long long* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  const long long n = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || n < lo || n > hi) return false;
  *v = n;
  return true;
}

}  // namespace

std::string usage_text() {
  return R"(usage: hiercoll_bench [options]     (run under mpirun; see docs/BENCHMARK.md)

  --ops LIST         operations (default bcast,reduce,allreduce,barrier,scan,allgather);
                     known: )" + op_names() + R"(
  --sizes LIST       bytes per rank: 8,1K,64K,1M,4M (default); ranges double: 8-4M
  --impls LIST       hier,flat,native,han (default); forced for studies:
                     hier:<composition> (hier:bcast_pipelined), hier:<flat
                     algorithm among the node leaders> (hier:twotree),
                     flat:<algorithm> (flat:rabenseifner); hints: <impl>@seg=64K,
                     <impl>@<info key>=<value>; mpi = Open MPI's choice without
                     any hint; tuned = hier selecting from the tuning file of
                     --tuning (see docs/BENCHMARK.md, docs/TUNING.md); dynamic =
                     hier with arrival-order trees (hint hiercoll_dynamic=depth)
  --tuning FILE      tuning file for `tuned` (from ./hiercoll tune); adds tuned
                     to the default implementations
  --reps R           repetitions per point and root (default: automatic, between
                     --min-reps 5 and --max-reps 100 within --point-seconds 6 per
                     operation and size)
  --warmup W         untimed calls per implementation before timing (default 2;
                     the first one also checks the result)
  --counts PATTERN   v-variants' block sizes: uniform (every block the size),
                     heavy (rank 0 holds half of all bytes), random[:SEED]
                     (sizes from 0 to twice the size, seed 1 by default)
  --roots WHICH      rooted operations: auto (all up to 16 ranks, else a sample),
                     all, sample (master and last rank of every node), or a list 0,5
  --sync time|barrier  start of each call: time (default; common start time on a
                     synchronized clock, per-call time = last rank's end - start)
                     or barrier (two barriers, per-call time = slowest rank's own time)
  --out DIR          output folder (default results/<timestamp>-<layout>)
  --no-plots         do not run gnuplot (the scripts are still written)
  --no-lower-bound   skip the ping-pong link measurement and lower bounds
  --no-check         do not check the results of the first warm-up call
  --skew SPEC        ranks enter every timed call late: RANK@US,... (1@2000,2@3000)
                     or random:K:MAX_US:SEED (K ranks drawn per repetition); the
                     tables add `ideal` (largest delay + fastest time without skew)
  --max-buffer BYTES skip points that need larger buffers per rank (default 1G)
  --overlap          nonblocking collectives, OSU-style: communication time alone,
                     with computation inserted, overlap %, hier and native, with
                     and without hiercoll's progress thread (--ops among
                     allreduce,bcast,alltoall,barrier; default all four; sizes
                     default 8,64K,1M; reps default 20)
  --overlap-work W   what --overlap inserts: spin (default; multiply-adds on
                     the core) or sleep (work done elsewhere, e.g. on an
                     accelerator: the core is left to the progress thread)
  --persistent       persistent collectives (MPIX_<op>_init, started with
                     MPI_Start) beside blocking ones: hier and native (Open
                     MPI's libnbc) persistent, hier-blocking, native-blocking,
                     interleaved (--ops default allreduce,bcast,gatherv,
                     alltoallv,reduce,allgather,barrier; rooted ops from root 0)
  -h, --help         this text
)";
}

namespace {

// What the rows edit: the options, and the implementations named so far.
struct BenchArgs {
  Options o;
  std::vector<std::string> impls = {"hier", "flat", "native", "han"};
  bool impls_given = false;
};

bool read_ops(Args& a, BenchArgs& s) {
  std::string v;
  if (!a.text(&v)) return false;
  s.o.ops = split_list(v, ',');
  for (const std::string& op : s.o.ops)
    if (!find_op(op)) return a.fail("unknown operation '" + op + "' (known: " + op_names() + ")");
  return !s.o.ops.empty() || a.fail("no operation given");
}

bool read_roots(Args& a, BenchArgs& s) {
  std::string v;
  if (!a.text(&v)) return false;
  long long rank;
  if (v != "auto" && v != "all" && v != "sample")
    for (const std::string& r : split_list(v, ','))
      if (!parse_int(r, 0, 1 << 30, &rank)) return a.fail("not auto, all, sample or a list of ranks");
  s.o.roots = v;
  return true;
}

// Text options whose value must be one of `allowed`.
bool one_of(Args& a, std::initializer_list<const char*> allowed, std::string* out) {
  std::string v;
  if (!a.text(&v)) return false;
  std::string names;
  for (const char* x : allowed) {
    if (v == x) {
      *out = v;
      return true;
    }
    names += std::string(names.empty() ? "" : " or ") + x;
  }
  return a.fail("expected " + names);
}

using Rows = std::vector<OptionRow<BenchArgs>>;

// What is measured: operations, sizes, the v-variants' blocks,
// implementations (and the tuning file of `tuned`), roots, late ranks, the
// largest buffer.
Rows call_rows() {
  return {
      {"--ops", false, read_ops},
      {"--counts", false,
       [](Args& a, BenchArgs& s) {
         std::string v, why;
         return a.text(&v) && (parse_counts(v, &s.o.counts, &why) || a.refuse(why));
       }},
      {"--sizes", false,
       [](Args& a, BenchArgs& s) {
         std::string v, why;
         return a.text(&v) && (parse_size_list(v, &s.o.sizes, &why) || a.fail(why));
       }},
      {"--impls", false,
       [](Args& a, BenchArgs& s) {
         std::string v;
         if (!a.text(&v)) return false;
         s.impls = split_list(v, ',');
         s.impls_given = true;
         return !s.impls.empty() || a.fail("no implementation given");
       }},
      {"--roots", false, read_roots},
      {"--tuning", false,
       [](Args& a, BenchArgs& s) {
         if (!a.nonempty_text(&s.o.tuning, "file name")) return false;
         if (!s.impls_given) s.impls.push_back("tuned");
         return true;
       }},
      {"--skew", false,
       [](Args& a, BenchArgs& s) {
         std::string v;
         if (!a.text(&v)) return false;
         const std::string why = parse_skew(v, &s.o.skew);
         return why.empty() || a.refuse(why);
       }},
      {"--max-buffer", false,
       [](Args& a, BenchArgs& s) {
         std::string v;
         return a.text(&v) && ((parse_size(v, &s.o.max_buffer) && s.o.max_buffer > 0) || a.fail("bad size"));
       }},
  };
}

// How each point is timed: repetitions, warm-up, the calls' start.
Rows timing_rows() {
  return {
      {"--reps", false, [](Args& a, BenchArgs& s) { return a.whole(1, 1000000, &s.o.reps); }},
      {"--min-reps", false, [](Args& a, BenchArgs& s) { return a.whole(1, 1000000, &s.o.min_reps); }},
      {"--max-reps", false, [](Args& a, BenchArgs& s) { return a.whole(1, 1000000, &s.o.max_reps); }},
      {"--point-seconds", false,
       [](Args& a, BenchArgs& s) {
         return a.number(1e-6, 1e9, &s.o.point_seconds, "a positive number of seconds");
       }},
      {"--warmup", false, [](Args& a, BenchArgs& s) { return a.whole(0, 1000, &s.o.warmup); }},
      {"--sync", false, [](Args& a, BenchArgs& s) { return one_of(a, {"time", "barrier"}, &s.o.sync); }},
  };
}

// Where the results go and what is left out; the studies run instead of
// the comparison.
Rows output_and_study_rows() {
  return {
      {"--out", false, [](Args& a, BenchArgs& s) { return a.nonempty_text(&s.o.out, "folder name"); }},
      {"--no-plots", true, [](Args&, BenchArgs& s) { return set(&s.o.plots, false); }},
      {"--no-lower-bound", true, [](Args&, BenchArgs& s) { return set(&s.o.lower_bound, false); }},
      {"--no-check", true, [](Args&, BenchArgs& s) { return set(&s.o.check, false); }},
      {"--overlap", true, [](Args&, BenchArgs& s) { return set(&s.o.overlap, true); }},
      {"--overlap-work", false,
       [](Args& a, BenchArgs& s) {
         std::string v;
         if (!one_of(a, {"spin", "sleep"}, &v)) return false;
         s.o.overlap_sleep = v == "sleep";
         return true;
       }},
      {"--persistent", true, [](Args&, BenchArgs& s) { return set(&s.o.persistent, true); }},
  };
}

const Rows& bench_rows() {
  static const Rows rows = hccli::join_rows<BenchArgs>({
      {{"-h|--help", true, [](Args&, BenchArgs& s) { return set(&s.o.help, true); }}},
      call_rows(),
      timing_rows(),
      output_and_study_rows(),
  });
  return rows;
}

// The implementations named, each once; `tuned` ones take the file.
bool add_impls(const std::vector<std::string>& names, Options* o, std::string* error) {
  for (const std::string& name : names) {
    ImplSpec s;
    if (!parse_impl(name, &s, error)) return false;
    if (s.tuned) {
      if (o->tuning.empty()) {
        *error = "implementation '" + name + "' needs --tuning FILE";
        return false;
      }
      s.hints.insert(s.hints.begin(), {"hiercoll_tuning_file", o->tuning});
    }
    for (const ImplSpec& prev : o->impls)
      if (prev.name == s.name) {
        *error = "implementation '" + name + "' given twice";
        return false;
      }
    o->impls.push_back(s);
  }
  return true;
}

}  // namespace

bool parse_options(int argc, char** argv, Options* opt, std::string* error) {
  BenchArgs s;
  if (!hccli::read_args(argc, argv, bench_rows(), &s, error)) return false;
  if (s.o.overlap && s.o.persistent) {
    *error = "--overlap and --persistent are separate studies: give one";
    return false;
  }
  if (s.o.min_reps > s.o.max_reps) {
    *error = "--min-reps is larger than --max-reps";
    return false;
  }
  if (!add_impls(s.impls, &s.o, error)) return false;
  *opt = s.o;
  return true;
}

}  // namespace hcbench
