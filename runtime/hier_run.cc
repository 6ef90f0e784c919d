// The hierarchical path of a call (run.cc tries it first in mode hier).
#include <atomic>
#include <cstdio>
#include <string>

#include "hier/hier_registry.h"
#include "runtime/plan.h"
#include "runtime/stats.h"

namespace hiercoll {

namespace {

// HIERCOLL_VERBOSE: say (once per operation) when a multi-level layout
// still sends an operation that has compositions down the flat path.
void say_flat(const Call& c, const Layout& L) {
  static std::atomic<bool> said[kNumOps] = {};  // threads may call at once
  if (said[static_cast<int>(c.op)].exchange(true)) return;
  std::fprintf(stderr, "hiercoll: %s: no hierarchical composition fits (%s%s); running flat\n", c.mpi_name,
               L.consecutive ? "" : "node ranks not consecutive, ", L.uniform ? "uniform nodes" : "uneven nodes");
}

// HIERCOLL_VERBOSE: say (every time, as for a forced flat algorithm) when
// a forced composition or inter-node algorithm does not fit the call.
void say_unfit(const Settings& s, const Call& c, const std::string& unfit, const HierChoice* used) {
  if (s.verbose)
    std::fprintf(stderr, "hiercoll: %s: %s does not fit this call; using %s\n", c.mpi_name, unfit.c_str(),
                 used ? used->name.c_str() : "the flat path");
}

}  // namespace

const std::shared_ptr<Schedule>* choose_hierarchical(const Call& c, Plan& plan, const Topology& topo,
                                                    const Settings& s, CommState* state, const Tuned& t,
                                                    bool blocking, int* rc) {
  *rc = MPI_SUCCESS;
  const CollArgs& args = plan.args;
  const int op = static_cast<int>(args.op);
  // A forced flat algorithm (HIERCOLL_<OP>_ALGORITHM or its info hint)
  // means that algorithm, on the whole communicator.
  if (!s.algorithm[op].empty()) return nullptr;
  const bool forcing = !s.composition[op].empty() || !s.inter_algorithm[op].empty();
  const LayoutFacts& facts = state->facts;
  // Degenerate shape: flat, at no further cost (unless something forced
  // must be reported as not fitting).
  if (!facts.hierarchical() && !forcing) return nullptr;
  std::string unfit;
  // The tuning file's composition is taken like a forced one, but one that
  // does not fit is no fallback of the user's: only told (verbose).
  const bool tuned = !forcing && t.range && t.range->method.kind == Method::kHier;
  // What is forced but does not apply gives way to the decided
  // composition (decide/decide.h forced_candidate decides alike).
  const bool decided_hier = t.range && t.range->method.kind == Method::kHier;
  HierForced forced = forcing ? HierForced{s.composition[op], s.inter_algorithm[op], ""}
                      : tuned ? HierForced{t.range->method.name, t.range->method.inter, ""}
                              : HierForced{};
  if (forcing && decided_hier) forced.otherwise = t.range->method.name;
  const int64_t segment = s.segment_bytes > 0 || !tuned ? s.segment_bytes : t.range->segment_bytes;
  const HierChoice* choice =
      choose_composition(*topo.layout, facts, args, plan.unit_bytes, segment, forced, &unfit, t.machine, t.phases);
  if (!unfit.empty()) {
    if (!tuned) count_fallback(c.api);
    say_unfit(s, c, unfit, choice);
  }
  if (!choice) {
    if (s.verbose && unfit.empty() && !compositions_for(args.op).empty()) say_flat(c, *topo.layout);
    return nullptr;
  }
  if (segment > 0 && choice->seg_units * plan.unit_bytes > segment)
    say_segment_raised(s, c, segment, choice->seg_units * plan.unit_bytes);
  if ((choice->comp->needs & kNeedAllCounts) && !blocking) {
    if (forcing || tuned) say_unfit(s, c, choice->name + " (a nonblocking call has no count exchange)", nullptr);
    if (forcing) count_fallback(c.api);
    return nullptr;
  }
  if (choice->comp->needs & kNeedAllCounts) {
    const bool everywhere = choice->comp->needs & kNodeRowsEverywhere;
    *rc = choice->comp->needs & kNeedNodeRows
              ? share_node_counts(topo, state, &plan.args, &plan.bufs, everywhere)
              : share_root_counts(topo, state, &plan.args, &plan.bufs, plan.unit_bytes);
    if (*rc != MPI_SUCCESS) return nullptr;
  }
  note_algorithm(choice->name.c_str());
  return &state->schedules.get(ScheduleKeyRef{choice, args},
                               [&] { return build_composed(*choice, *topo.layout, args); });
}

}  // namespace hiercoll
