#include "sim/options.h"

#include "select/model_figures_json.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "bench/ops.h"
#include "bench/options.h"

namespace hiercoll {

namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

bool parse_count(const std::string& text, int* v) {
  char* end = nullptr;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || n < 1 || n > (1 << 24)) return false;
  *v = static_cast<int>(n);
  return true;
}

bool parse_figure(const std::string& text, double* v) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !std::isfinite(x)) return false;
  *v = x;
  return true;
}

// One size as bench spells it (64K).
bool parse_bytes(const std::string& text, double* v, std::string* error) {
  std::vector<int64_t> bytes;
  if (!hcbench::parse_size_list(text, &bytes, error) || bytes.size() != 1) return false;
  *v = static_cast<double>(bytes.front());
  return true;
}

}  // namespace

std::string sim_usage() {
  return "usage: hiercoll simulate --nodes N --ppn P [--ppn-list L --map-by slot|node] --ops LIST --sizes LIST\n"
         "                         --impls LIST [--alpha US] [--bandwidth GBPS] [--shm-alpha US]\n"
         "                         [--shm-bandwidth GBPS] [--reduce-bandwidth GBPS] [--out DIR] [--tuning FILE]\n"
         "                         [--roots sample|LIST] [--link-burst BYTES] [--max-steps N]\n"
         "                         [--latency-overlaps yes|no] [--cores N --cores-shared-by node|all]\n"
         "                         [--message-cpu US] [--eager-limit BYTES] [--shm-eager-limit BYTES]\n"
         "  Predicts the time of hiercoll's collectives from the schedules the runtime runs, under a cost model\n"
         "  (docs/SIMULATION.md). Defaults: --nodes 4 --ppn 2, --ops bcast,reduce,allreduce,barrier,scan,allgather,\n"
         "  --sizes 8,1K,64K,1M,4M, --impls hier,flat; alpha 1.5 us, 12.5 GB/s between nodes, 0.3 us and 20 GB/s\n"
         "  inside a node, reducing 10 GB/s (GB = 10^9 bytes). Sizes as in bench (1M = 2^20 bytes).\n"
         "  Implementations: hier, flat, flat:<algorithm>, hier:<composition or leaders' algorithm>,\n"
         "  tuned (with --tuning FILE). --out DIR writes DIR/simulated.csv and DIR/critical_path.csv.\n"
         "  --roots sample|LIST: rooted operations at the first, middle and last rank (default; the median is\n"
         "  reported), or at the ranks listed (one simulation each). --link-burst BYTES: a node's link passes\n"
         "  that many bytes at once after idling (a token bucket, as the emulated cluster's shaper: 64K).\n"
         "  --latency-overlaps yes|no: a sender's port is free once its bytes are out, the latency\n"
         "  overlapping its next send (LogP's view; default no, the papers' model).\n"
         "  --cores N: a node's ranks (--cores-shared-by all: every rank, as the emulated cluster's 8 ranks\n"
         "  on 2 cores) share N cores for reductions and each message's handling at its receiver\n"
         "  (--message-cpu US), first come first served (default 0: a core per rank, no handling time).\n"
         "  --eager-limit BYTES, --shm-eager-limit BYTES: messages of at least that many bytes between nodes\n"
         "  (inside a node) go by rendezvous, a round trip of latency before their data (Open MPI's TCP: 64K,\n"
         "  vader: 4K; default 0: none).\n"
         "  --max-steps N: points whose schedules have more steps in all are skipped (default 150000000,\n"
         "  about 9 GB).\n"
         "  --figures FILE: every figure from a figures file (--calibrate ... --figures-out FILE) or from a\n"
         "  tuning file's first entry that carries model figures; figure options after it change them.\n"
         "usage: hiercoll simulate --calibrate results.csv [--map-by slot|node] [--tuning FILE]\n"
         "                         [--fit squares|absolute] [figures]\n"
         "  Fits the five figures (alpha, bandwidth, shm alpha, shm bandwidth, reduce bandwidth; with --cores\n"
         "  also --message-cpu) to a benchmark run's results.csv (its rows of hier, flat, flat:<a>, hier:<c>,\n"
         "  tuned with the run's --tuning),\n"
         "  starting from the figures given (or the defaults); --map-by: the run's placement (bench's default\n"
         "  is slot); --fit: minimise the sum of squared (default) or absolute log(predicted / measured).\n"
         "  Prints the figures and every point's measured and predicted time; --figures-out FILE writes the\n"
         "  fitted figures as a figures file (what --figures, explain and tune --model read).\n";
}

Figures given_figures(const SimOptions& opt, const Figures& otherwise) {
  if (!opt.figures_given) return otherwise;
  return {opt.model, opt.figures_source.empty() ? "given on the command line" : opt.figures_source};
}

bool parse_sim_options(int argc, char** argv, SimOptions* opt, std::string* error) {
  int nodes = 4, ppn = 2;
  std::string ppn_list;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      opt->help = true;
      return true;
    }
    if (i + 1 >= argc) {
      *error = arg.rfind("--", 0) == 0 ? arg + " needs a value" : "unexpected argument '" + arg + "'";
      return false;
    }
    const std::string v = argv[++i];
    bool ok = true;
    for (const char* f : {"--figures", "--alpha", "--bandwidth", "--shm-alpha", "--shm-bandwidth",
                          "--reduce-bandwidth", "--link-burst", "--latency-overlaps", "--cores", "--cores-shared-by",
                          "--message-cpu", "--eager-limit", "--shm-eager-limit"})
      if (arg == f) opt->figures_given = true;
    if (arg == "--nodes") ok = parse_count(v, &nodes);
    else if (arg == "--ppn") ok = parse_count(v, &ppn);
    else if (arg == "--ppn-list") ppn_list = v;
    else if (arg == "--map-by") ok = (opt->placement = v) == "slot" || v == "node";
    else if (arg == "--ops") opt->ops = split_list(v);
    else if (arg == "--impls") opt->impls = split_list(v);
    else if (arg == "--sizes") {
      if (!hcbench::parse_size_list(v, &opt->sizes, error)) return false;
    } else if (arg == "--alpha") ok = parse_figure(v, &opt->model.alpha_us);
    else if (arg == "--bandwidth") ok = parse_figure(v, &opt->model.bandwidth_gbps);
    else if (arg == "--shm-alpha") ok = parse_figure(v, &opt->model.shm_alpha_us);
    else if (arg == "--shm-bandwidth") ok = parse_figure(v, &opt->model.shm_bandwidth_gbps);
    else if (arg == "--reduce-bandwidth") ok = parse_figure(v, &opt->model.reduce_gbps);
    else if (arg == "--latency-overlaps") ok = (v == "yes" || v == "no") && ((opt->model.latency_overlaps = v == "yes"), true);
    else if (arg == "--cores") ok = v == "0" ? ((opt->model.cores = 0), true) : parse_count(v, &opt->model.cores);
    else if (arg == "--cores-shared-by") ok = (v == "node" || v == "all") && ((opt->model.cores_shared_by_all = v == "all"), true);
    else if (arg == "--message-cpu") ok = parse_figure(v, &opt->model.message_cpu_us);
    else if (arg == "--link-burst") ok = parse_bytes(v, &opt->model.burst_bytes, error);
    else if (arg == "--eager-limit") ok = parse_bytes(v, &opt->model.eager_limit, error);
    else if (arg == "--shm-eager-limit") ok = parse_bytes(v, &opt->model.shm_eager_limit, error);
    else if (arg == "--figures") {
      // At its place: figure options after it change what it set.
      std::string source, why;
      if (!load_figures_file(v, &opt->model, &source, &why)) {
        *error = "--figures: " + why;
        return false;
      }
      opt->figures_source = source;
    }
    else if (arg == "--figures-out") opt->figures_out = v;
    else if (arg == "--out") opt->out = v;
    else if (arg == "--tuning") opt->tuning = v;
    else if (arg == "--calibrate") opt->calibrate = v;
    else if (arg == "--fit") ok = (v == "squares" || v == "absolute") && ((opt->fit_absolute = v == "absolute"), true);
    else if (arg == "--max-steps") {
      char* end = nullptr;
      opt->max_steps = std::strtoll(v.c_str(), &end, 10);
      ok = !v.empty() && !*end && opt->max_steps > 0;
    }
    else if (arg == "--roots") {
      opt->roots.clear();
      if (v != "sample")
        for (const std::string& item : split_list(v)) {
          int root = 0;  // parse_count takes 1.., and rank 0 is a root too
          if (item != "0" && !parse_count(item, &root)) ok = false;
          opt->roots.push_back(root);
        }
    }
    else {
      *error = "unknown option '" + arg + "' (see --help)";
      return false;
    }
    if (!ok) {
      *error = "bad value '" + v + "' for " + arg;
      return false;
    }
  }
  if (!ppn_list.empty()) {
    opt->ranks_per_node.clear();
    for (const std::string& item : split_list(ppn_list)) {
      int k = 0;
      if (!parse_count(item, &k)) {
        *error = "bad --ppn-list '" + ppn_list + "' (example: 3,1,2)";
        return false;
      }
      opt->ranks_per_node.push_back(k);
    }
  } else {
    opt->ranks_per_node.assign(nodes, ppn);
  }
  int64_t ranks = 0;
  for (int k : opt->ranks_per_node) ranks += k;
  if (ranks > (1 << 24)) {
    *error = "too many ranks (" + std::to_string(ranks) + "; at most 16777216)";
    return false;
  }
  for (int root : opt->roots)
    if (root >= ranks) {
      *error = "--roots: rank " + std::to_string(root) + " is not below the " + std::to_string(ranks) + " ranks";
      return false;
    }
  for (const std::string& op : opt->ops)
    if (!hcbench::find_op(op)) {
      *error = "unknown operation '" + op + "' (" + hcbench::op_names() + ")";
      return false;
    }
  if (opt->impls.empty()) {
    *error = "no implementations given";
    return false;
  }
  for (const std::string& impl : opt->impls)
    if (impl == "tuned" && opt->tuning.empty() && opt->calibrate.empty()) {
      *error = "the implementation 'tuned' needs --tuning FILE";
      return false;
    }
  *error = check_cost_model(opt->model);
  return error->empty();
}

}  // namespace hiercoll
