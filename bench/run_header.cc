#include "bench/run_header.h"

#include <algorithm>
#include <cstdlib>

#include "bench/run_text.h"
#include "hiercoll_version.h"
#include "measure/sizes.h"

namespace hcbench {
namespace {

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

void say_machine(const RunHeader& h, Log& log) {
  const Machine& machine = *h.machine;
  log.say("hiercoll benchmark %s, %s", HIERCOLL_VERSION, timestamp("%Y-%m-%d %H:%M:%S").c_str());
  log.say("MPI: %s", machine.mpi_library.c_str());
  log.say("layout: %s", machine.header().c_str());
  if (h.opt->skew.any()) log.say("skew: %s (late ranks enter each timed call that late)", h.opt->skew.text.c_str());
  const std::string load = load_average();
  log.say("load average of the machine at start: %s", load.c_str());
  if (std::atof(load.c_str()) > 0.5 * machine.cores_per_machine + 0.5)
    log.say("WARNING: the machine is busy before the benchmark starts; other jobs distort the figures");
  log.say("nodes: %s", nodes_text(machine).c_str());
  if (!h.link_model_error.empty()) log.say("WARNING: %s; no link model assumed", h.link_model_error.c_str());
  log.say("link model: %s", describe_link_model(*h.link_model).c_str());
}

void say_measured(const RunHeader& h, Log& log) {
  const Options& opt = *h.opt;
  const std::vector<const OpInfo*>& ops = *h.ops;
  const std::string reps = opt.reps ? std::to_string(opt.reps)
                                    : "auto (" + std::to_string(opt.min_reps) + ".." + std::to_string(opt.max_reps) +
                                          " within " + std::to_string(opt.point_seconds).substr(0, 4) + " s per point)";
  log.say("ops: %s; sizes: %s; reps: %s; warm-up: %d%s", join(opt.ops, ",").c_str(), sizes_text(opt.sizes).c_str(),
          reps.c_str(), opt.warmup, opt.check ? " (first call checked)" : "");
  if (std::any_of(ops.begin(), ops.end(), [](const OpInfo* o) { return o->rooted; })) {
    std::vector<std::string> r;
    for (int x : *h.roots) r.push_back(std::to_string(x));
    log.say("roots of rooted ops: %s (%zu)", join(r, ",").c_str(), h.roots->size());
  }
  if (std::any_of(ops.begin(), ops.end(), [](const OpInfo* o) { return o->vector; }))
    log.say("v-variants' blocks (--counts): %s", opt.counts.name().c_str());
}

// Each implementation's hints, and the functions Open MPI's table holds
// for it (HAN's presence checked).
void say_impls(const RunHeader& h, Log& log) {
  bool han_missing = false;
  for (const Impl& i : *h.impls) {
    std::string note;
    if (!i.via_hiercoll) {
      std::vector<std::string> han;
      const std::string f = ompi_functions(i, *h.ops, &han);
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
}

}  // namespace

void say_run_header(const RunHeader& h, Log& log) {
  say_machine(h, log);
  say_measured(h, log);
  say_impls(h, log);
}

}  // namespace hcbench
