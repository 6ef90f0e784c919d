#include "bench/options.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "bench/ops.h"

namespace hcbench {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

bool parse_int(const std::string& s, long long lo, long long hi, long long* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  const long long n = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || n < lo || n > hi) return false;
  *v = n;
  return true;
}

bool parse_double(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return *end == '\0' && *v > 0;
}

}  // namespace

bool parse_size(const std::string& text, int64_t* bytes) {
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 12) return false;
  int64_t n = std::stoll(text.substr(0, i));
  std::string unit = text.substr(i);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit == "B") unit.clear();
  if (unit.size() == 3 && unit.substr(1) == "IB") unit = unit.substr(0, 1);
  if (unit.size() == 2 && unit[1] == 'B') unit = unit.substr(0, 1);
  int shift = 0;
  if (unit.empty()) shift = 0;
  else if (unit == "K") shift = 10;
  else if (unit == "M") shift = 20;
  else if (unit == "G") shift = 30;
  else return false;
  if (n > (int64_t{1} << (40 - shift))) return false;  // at most 1 TiB
  *bytes = n << shift;
  return true;
}

std::string format_size(int64_t bytes) {
  static const char* const units[] = {"", "K", "M", "G"};
  int u = 0;
  while (u < 3 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + units[u];
}

bool parse_size_list(const std::string& text, std::vector<int64_t>* sizes, std::string* error) {
  std::vector<int64_t> out;
  for (const std::string& item : split(text, ',')) {
    const size_t dash = item.find('-');
    if (dash == std::string::npos) {
      int64_t b;
      if (!parse_size(item, &b)) {
        *error = "bad size '" + item + "' (examples: 8, 1K, 64K, 1M, 8-4M)";
        return false;
      }
      out.push_back(b);
      continue;
    }
    int64_t lo, hi;
    if (!parse_size(item.substr(0, dash), &lo) || !parse_size(item.substr(dash + 1), &hi) || lo <= 0 || hi < lo) {
      *error = "bad size range '" + item + "' (example: 8-4M doubles from 8 bytes to 4 MiB)";
      return false;
    }
    for (int64_t b = lo; b <= hi; b *= 2) out.push_back(b);
  }
  if (out.empty()) {
    *error = "no sizes given";
    return false;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  *sizes = out;
  return true;
}

bool parse_impl(const std::string& text, ImplSpec* spec, std::string* error) {
  ImplSpec s;
  s.name = text;
  std::vector<std::string> parts = split(text, '@');
  const std::string head = parts.empty() ? "" : parts[0];
  const size_t colon = head.find(':');
  const std::string base = head.substr(0, colon);
  if (base == "hier") s.kind = ImplSpec::kHier;
  else if (base == "tuned" && colon == std::string::npos) s.kind = ImplSpec::kHier, s.tuned = true;
  else if (base == "flat") s.kind = ImplSpec::kFlat;
  else if (base == "dynamic" && colon == std::string::npos) {
    // hier with arrival-order trees (HIERCOLL_DYNAMIC)
    s.kind = ImplSpec::kHier;
    s.hints.emplace_back("hiercoll_dynamic", "depth");
  }
  else if (base == "native") s.kind = ImplSpec::kNative;
  else if (base == "han") s.kind = ImplSpec::kHan;
  else if (base == "mpi") s.kind = ImplSpec::kMpi;
  else {
    *error = "unknown implementation '" + text +
             "' (hier, flat, native, han, mpi, tuned, dynamic, hier:<composition or inter-node algorithm>, "
             "flat:<algorithm>)";
    return false;
  }
  if (colon != std::string::npos) {
    s.algorithm = head.substr(colon + 1);
    if (s.kind != ImplSpec::kHier && s.kind != ImplSpec::kFlat) {
      *error = "'" + text + "': only hier and flat take a forced name";
      return false;
    }
    if (s.algorithm.empty()) {
      *error = "'" + text + "': empty algorithm name";
      return false;
    }
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    const size_t eq = parts[i].find('=');
    if (eq == std::string::npos || eq == 0) {
      *error = "'" + text + "': hint '" + parts[i] + "' is not key=value";
      return false;
    }
    std::string key = parts[i].substr(0, eq);
    std::string value = parts[i].substr(eq + 1);
    if (key == "seg") {
      int64_t b;
      if (!parse_size(value, &b)) {
        *error = "'" + text + "': bad segment size '" + value + "'";
        return false;
      }
      key = "hiercoll_segment_bytes";
      value = std::to_string(b);
    }
    s.hints.emplace_back(key, value);
  }
  *spec = s;
  return true;
}

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

bool parse_options(int argc, char** argv, Options* opt, std::string* error) {
  Options o;
  std::vector<std::string> impls = {"hier", "flat", "native", "han"};
  bool impls_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto need = [&](std::string* v) {
      if (has_value) {
        *v = value;
        return true;
      }
      if (i + 1 >= argc) {
        *error = arg + " needs a value";
        return false;
      }
      *v = argv[++i];
      return true;
    };
    auto need_int = [&](long long lo, long long hi, int* out) {
      std::string v;
      long long n;
      if (!need(&v)) return false;
      if (!parse_int(v, lo, hi, &n)) {
        *error = arg + ": '" + v + "' is not a whole number in " + std::to_string(lo) + ".." + std::to_string(hi);
        return false;
      }
      *out = static_cast<int>(n);
      return true;
    };
    std::string v;
    if (arg == "-h" || arg == "--help") {
      o.help = true;
    } else if (arg == "--ops") {
      if (!need(&v)) return false;
      o.ops = split(v, ',');
      for (const std::string& op : o.ops)
        if (!find_op(op)) {
          *error = "unknown operation '" + op + "' (known: " + op_names() + ")";
          return false;
        }
      if (o.ops.empty()) {
        *error = "--ops: no operation given";
        return false;
      }
    } else if (arg == "--counts") {
      if (!need(&v) || !parse_counts(v, &o.counts, error)) return false;
    } else if (arg == "--sizes") {
      if (!need(&v) || !parse_size_list(v, &o.sizes, error)) return false;
    } else if (arg == "--impls") {
      if (!need(&v)) return false;
      impls = split(v, ',');
      impls_given = true;
      if (impls.empty()) {
        *error = "--impls: no implementation given";
        return false;
      }
    } else if (arg == "--reps") {
      if (!need_int(1, 1000000, &o.reps)) return false;
    } else if (arg == "--min-reps") {
      if (!need_int(1, 1000000, &o.min_reps)) return false;
    } else if (arg == "--max-reps") {
      if (!need_int(1, 1000000, &o.max_reps)) return false;
    } else if (arg == "--point-seconds") {
      if (!need(&v)) return false;
      if (!parse_double(v, &o.point_seconds)) {
        *error = "--point-seconds: '" + v + "' is not a positive number";
        return false;
      }
    } else if (arg == "--warmup") {
      if (!need_int(0, 1000, &o.warmup)) return false;
    } else if (arg == "--roots") {
      if (!need(&v)) return false;
      if (v != "auto" && v != "all" && v != "sample") {
        for (const std::string& r : split(v, ',')) {
          long long n;
          if (!parse_int(r, 0, 1 << 30, &n)) {
            *error = "--roots: '" + v + "' is not auto, all, sample or a list of ranks";
            return false;
          }
        }
      }
      o.roots = v;
    } else if (arg == "--sync") {
      if (!need(&v)) return false;
      if (v != "time" && v != "barrier") {
        *error = "--sync must be time or barrier, got '" + v + "'";
        return false;
      }
      o.sync = v;
    } else if (arg == "--out") {
      if (!need(&o.out)) return false;
      if (o.out.empty()) {
        *error = "--out: empty folder name";
        return false;
      }
    } else if (arg == "--tuning") {
      if (!need(&o.tuning)) return false;
      if (o.tuning.empty()) {
        *error = "--tuning: empty file name";
        return false;
      }
      if (!impls_given) impls.push_back("tuned");
    } else if (arg == "--skew") {
      if (!need(&v)) return false;
      const std::string why = parse_skew(v, &o.skew);
      if (!why.empty()) {
        *error = why;
        return false;
      }
    } else if (arg == "--max-buffer") {
      if (!need(&v)) return false;
      if (!parse_size(v, &o.max_buffer) || o.max_buffer <= 0) {
        *error = "--max-buffer: bad size '" + v + "'";
        return false;
      }
    } else if (arg == "--no-plots" && !has_value) {
      o.plots = false;
    } else if (arg == "--no-lower-bound" && !has_value) {
      o.lower_bound = false;
    } else if (arg == "--no-check" && !has_value) {
      o.check = false;
    } else if (arg == "--overlap" && !has_value) {
      o.overlap = true;
    } else if (arg == "--overlap-work") {
      if (!need(&v)) return false;
      if (v != "spin" && v != "sleep") {
        *error = "--overlap-work: '" + v + "' is not spin or sleep";
        return false;
      }
      o.overlap_sleep = v == "sleep";
    } else if (arg == "--persistent" && !has_value) {
      o.persistent = true;
    } else {
      *error = std::string("unknown argument '") + argv[i] + "' (see --help)";
      return false;
    }
  }
  if (o.overlap && o.persistent) {
    *error = "--overlap and --persistent are separate studies: give one";
    return false;
  }
  if (o.min_reps > o.max_reps) {
    *error = "--min-reps is larger than --max-reps";
    return false;
  }
  for (const std::string& name : impls) {
    ImplSpec s;
    if (!parse_impl(name, &s, error)) return false;
    if (s.tuned) {
      if (o.tuning.empty()) {
        *error = "implementation '" + name + "' needs --tuning FILE";
        return false;
      }
      s.hints.insert(s.hints.begin(), {"hiercoll_tuning_file", o.tuning});
    }
    for (const ImplSpec& prev : o.impls)
      if (prev.name == s.name) {
        *error = "implementation '" + name + "' given twice";
        return false;
      }
    o.impls.push_back(s);
  }
  *opt = o;
  return true;
}

}  // namespace hcbench
