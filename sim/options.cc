#include "sim/options.h"

#include "select/model_figures_json.h"

#include <cmath>
#include <cstdlib>

#include "cli/args.h"
#include "measure/ops.h"
#include "measure/sizes.h"

namespace hiercoll {

namespace {

using hccli::Args;
using hccli::split_list;

bool parse_count(const std::string& text, int* v) {
  char* end = nullptr;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || n < 1 || n > (1 << 24)) return false;
  *v = static_cast<int>(n);
  return true;
}

// What the rows edit: the options, and the layout's pieces until the end.
struct SimArgs {
  SimOptions* o;
  int nodes = 4, ppn = 2;
  std::string ppn_list = {};
};

// A figure of the cost model: any finite number (check_cost_model judges
// it with the others at the end).
hccli::OptionRow<SimArgs> figure_row(const char* name, double CostModel::*field) {
  return {name, false, [field](Args& a, SimArgs& s) {
            s.o->figures_given = true;
            return a.number(-HUGE_VAL, HUGE_VAL, &(s.o->model.*field), "a number");
          }};
}

// A size of the cost model, as bench spells sizes (64K).
hccli::OptionRow<SimArgs> bytes_row(const char* name, double CostModel::*field) {
  return {name, false, [field](Args& a, SimArgs& s) {
            s.o->figures_given = true;
            std::string v, why;
            std::vector<int64_t> bytes;
            if (!a.text(&v)) return false;
            if (!hcbench::parse_size_list(v, &bytes, &why) || bytes.size() != 1) return a.fail("expected one size");
            s.o->model.*field = static_cast<double>(bytes.front());
            return true;
          }};
}

// A choice between two words; *out is whether the second was given.
bool either(Args& a, const char* first, const char* second, bool* out) {
  std::string v;
  if (!a.text(&v)) return false;
  if (v != first && v != second) return a.fail(std::string("expected ") + first + " or " + second);
  *out = v == second;
  return true;
}

bool read_roots(Args& a, SimArgs& s) {
  std::string v;
  if (!a.text(&v)) return false;
  s.o->roots.clear();
  if (v == "sample") return true;
  for (const std::string& item : split_list(v, ',')) {
    int root = 0;  // parse_count takes 1.., and rank 0 is a root too
    if (item != "0" && !parse_count(item, &root)) return a.fail("expected sample or a list of ranks");
    s.o->roots.push_back(root);
  }
  return true;
}

bool read_figures_file(Args& a, SimArgs& s) {
  // At its place: figure options after it change what it set.
  std::string v, source, why;
  if (!a.text(&v)) return false;
  s.o->figures_given = true;
  if (!load_figures_file(v, &s.o->model, &source, &why)) return a.refuse("--figures: " + why);
  s.o->figures_source = source;
  return true;
}

using Rows = std::vector<hccli::OptionRow<SimArgs>>;

// Handlers of a text option, a comma-separated list, a count from 1.
auto text(std::string SimOptions::*field) {
  return [field](Args& a, SimArgs& s) { return a.text(&(s.o->*field)); };
}

auto list(std::vector<std::string> SimOptions::*field) {
  return [field](Args& a, SimArgs& s) {
    std::string v;
    if (!a.text(&v)) return false;
    s.o->*field = split_list(v, ',');
    return true;
  };
}

auto count(int SimArgs::*field) {
  return [field](Args& a, SimArgs& s) { return a.whole(1, 1 << 24, &(s.*field)); };
}

// The layout: --nodes and --ppn, or --ppn-list; the placement.
Rows layout_rows() {
  return {
      {"--nodes", false, count(&SimArgs::nodes)},
      {"--ppn", false, count(&SimArgs::ppn)},
      {"--ppn-list", false, [](Args& a, SimArgs& s) { return a.text(&s.ppn_list); }},
      {"--map-by", false,
       [](Args& a, SimArgs& s) {
         bool node = false;
         if (!either(a, "slot", "node", &node)) return false;
         s.o->placement = node ? "node" : "slot";
         return true;
       }},
  };
}

// What is simulated: operations, implementations, sizes, roots, and the
// largest schedules.
Rows call_rows() {
  return {
      {"--ops", false, list(&SimOptions::ops)},
      {"--impls", false, list(&SimOptions::impls)},
      {"--sizes", false,
       [](Args& a, SimArgs& s) {
         std::string v, why;
         return a.text(&v) && (hcbench::parse_size_list(v, &s.o->sizes, &why) || a.fail(why));
       }},
      {"--max-steps", false,
       [](Args& a, SimArgs& s) {
         double n = 0;
         if (!a.number(1, 9.2e18, &n, "a positive whole number") || n != std::floor(n))
           return a.fail("expected a positive whole number");
         s.o->max_steps = static_cast<int64_t>(n);
         return true;
       }},
      {"--roots", false, read_roots},
  };
}

// The cost model's figures, one by one or from a file.
Rows model_rows() {
  return {
      figure_row("--alpha", &CostModel::alpha_us),
      figure_row("--bandwidth", &CostModel::bandwidth_gbps),
      figure_row("--shm-alpha", &CostModel::shm_alpha_us),
      figure_row("--shm-bandwidth", &CostModel::shm_bandwidth_gbps),
      figure_row("--reduce-bandwidth", &CostModel::reduce_gbps),
      figure_row("--message-cpu", &CostModel::message_cpu_us),
      bytes_row("--link-burst", &CostModel::burst_bytes),
      bytes_row("--eager-limit", &CostModel::eager_limit),
      bytes_row("--shm-eager-limit", &CostModel::shm_eager_limit),
      {"--latency-overlaps", false,
       [](Args& a, SimArgs& s) {
         s.o->figures_given = true;
         return either(a, "no", "yes", &s.o->model.latency_overlaps);
       }},
      {"--cores", false,
       [](Args& a, SimArgs& s) {
         s.o->figures_given = true;
         return a.whole(0, 1 << 24, &s.o->model.cores);
       }},
      {"--ports", false,
       [](Args& a, SimArgs& s) {
         s.o->figures_given = true;
         return either(a, "duplex", "simplex", &s.o->model.simplex);
       }},
      {"--cores-shared-by", false,
       [](Args& a, SimArgs& s) {
         s.o->figures_given = true;
         return either(a, "node", "all", &s.o->model.cores_shared_by_all);
       }},
      {"--figures", false, read_figures_file},
  };
}

// Files written and read: results, figures, a tuning file, a benchmark's
// results to calibrate on (and how to fit them).
Rows file_rows() {
  return {
      {"--figures-out", false, text(&SimOptions::figures_out)},
      {"--out", false, text(&SimOptions::out)},
      {"--tuning", false, text(&SimOptions::tuning)},
      {"--calibrate", false, text(&SimOptions::calibrate)},
      {"--fit", false, [](Args& a, SimArgs& s) { return either(a, "squares", "absolute", &s.o->fit_absolute); }},
  };
}

const Rows& sim_rows() {
  static const Rows rows = hccli::join_rows<SimArgs>({
      {{"-h|--help", true, [](Args&, SimArgs& s) { return hccli::set(&s.o->help, true); }}},
      layout_rows(),
      call_rows(),
      model_rows(),
      file_rows(),
  });
  return rows;
}

// The layout from --nodes and --ppn, or --ppn-list.
bool set_layout(const SimArgs& s, std::string* error) {
  SimOptions* o = s.o;
  if (s.ppn_list.empty()) {
    o->ranks_per_node.assign(s.nodes, s.ppn);
    return true;
  }
  o->ranks_per_node.clear();
  for (const std::string& item : split_list(s.ppn_list, ',')) {
    int k = 0;
    if (!parse_count(item, &k)) {
      *error = "bad --ppn-list '" + s.ppn_list + "' (example: 3,1,2)";
      return false;
    }
    o->ranks_per_node.push_back(k);
  }
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
         "                         [--ports duplex|simplex]\n"
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
         "  --ports simplex: a rank sends or receives one message at a time, not both (the MPICH paper's\n"
         "  refined model at f = 0.5: an exchange costs two messages' time; default duplex).\n"
         "  --max-steps N: points whose schedules have more steps in all are not simulated whole: they\n"
         "  report their method's cost derived from smaller layouts, marked (derived), or are skipped\n"
         "  (default 150000000, about 9 GB).\n"
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
  SimArgs s{opt};
  // --help wins over whatever else is given.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") return hccli::set(&opt->help, true);
  if (!hccli::read_args(argc, argv, sim_rows(), &s, error) || !set_layout(s, error)) return false;
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
