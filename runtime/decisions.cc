#include "runtime/decisions.h"

#include <cstdint>
#include <map>
#include <mutex>

#include "hier/hier_registry.h"
#include "runtime/comm_state.h"
#include "runtime/figures_probe.h"

namespace hiercoll {

namespace {

// Everything the decisions of a communicator depend on besides the call:
// its layout (nodes, placement, sockets), its mode and its figures.
std::string table_key(const CommState* state, const Settings& s) {
  const Layout& L = *state->topology->layout;
  std::string k = s.mode == Mode::kHier ? "hier|" : "flat|";
  k += "segment " + std::to_string(s.segment_bytes) + '|';
  k += comm_figures(state).source;
  k += "|entry " + std::to_string(reinterpret_cast<uintptr_t>(state->tuning)) + '|';
  k += L.socket_level;
  for (int r = 0; r < L.size; ++r) {
    k += ',';
    k += std::to_string(L.node_of[r]);
    if (L.max_sockets_per_node > 1) k += ":" + std::to_string(L.socket_of[r]);
  }
  return k;
}

struct ProcessTable {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<Decided>> decided;
};
ProcessTable& process_table() {
  static ProcessTable* t = new ProcessTable;  // outlives every communicator
  return *t;
}

DecideInput decide_input(const CommState* state, const Settings& s) {
  DecideInput in;
  in.layout = state->topology->layout.get();
  in.facts = &state->facts;
  in.figures = &comm_figures(state);
  in.tuning = state->tuning;
  in.scope.hier = s.mode == Mode::kHier;
  in.scope.machine = state->tuning ? &state->tuning->machine : nullptr;
  in.scope.forced_segment = s.segment_bytes;
  return in;
}

// A costed candidate as the runtime runs it, and its flat algorithm
// resolved once (null: not flat).
TunedRange range_of(const Costed& k) {
  TunedRange r;
  r.method = k.candidate.method;
  r.segment_bytes = k.candidate.segment_bytes;
  r.predicted_us = k.us;
  return r;
}
const Algorithm* flat_algorithm(Op op, const TunedRange& r) {
  return r.method.kind == Method::kFlat ? find_algorithm(op, r.method.name) : nullptr;
}

Decided make_decided(const CommState* state, const Settings& s, Op op, int64_t bytes, bool commutative) {
  DecideInput in = decide_input(state, s);
  in.file_ranges = false;  // looked up per call (decided_file_range)
  const Decision d = decide_class(in, op, bytes, commutative);
  Decided out;
  out.range = range_of(d.chosen());
  out.source = d.source;
  out.algorithm = flat_algorithm(op, out.range);
  out.own = out.range;
  out.own_algorithm = out.algorithm;
  bool own_found = out.range.method.kind != Method::kNative;
  for (const Costed& k : d.ranked) {
    if (k.us < 0) break;  // the ones not costed come last
    if (!own_found && k.candidate.method.kind != Method::kNative) {
      out.own = range_of(k);
      out.own_algorithm = flat_algorithm(op, out.own);
      own_found = true;
    }
    if (static_cast<int>(out.tries.size()) == kOnlineTries) continue;
    bool twin = false;
    for (const TunedRange& t : out.tries) twin = twin || cost_ns(t.predicted_us) == cost_ns(k.us);
    if (twin) continue;
    out.tries.push_back(range_of(k));
    out.try_algorithms.push_back(flat_algorithm(op, out.tries.back()));
  }
  return out;
}

}  // namespace

const TunedRange* decided_file_range(const CommState* state, const Settings& s, Op op, int64_t bytes) {
  if (!state->tuning) return nullptr;
  DecideInput in;  // what file_range reads; no figures (a lookup per call)
  in.tuning = state->tuning;
  in.scope.hier = s.mode == Mode::kHier;
  return file_range(in, op, bytes);
}

bool range_fits(const TunedRange& r, const CommState* state, const CollArgs& a) {
  const Method& m = r.method;
  if (m.kind == Method::kNative) return true;
  if (m.kind == Method::kFlat) {
    const Algorithm* alg = find_algorithm(a.op, m.name);
    return alg && algorithm_fits(*alg, a);
  }
  const HierComposition* comp = find_composition(a.op, m.name);
  return comp && composition_applies(*comp, *state->topology->layout, state->facts, a);
}

const Figures& comm_figures(const CommState* state) {
  // A tuning file's machine figures are ping-pong times (select/machine.h),
  // not the model's: on the emulated cluster the calibrated latency is 5
  // to 20 times the ping-pong's (docs/SIMULATION.md, "Calibration").  So
  // the model takes a file's figures only where an entry carries model
  // figures of its own ("model"), else keeps the process's
  // (HIERCOLL_FIGURES: built-in, probed or from a figures file).
  return state->figures ? *state->figures : machine_figures();
}

const Decided* decided(CommState* state, const Settings& s, Op op, int64_t bytes, bool commutative) {
  if (!model_decides(op)) return nullptr;
  const int cls = size_class(bytes);
  const int index = 2 * cls + (commutative ? 1 : 0);
  const int memo = static_cast<int>(op) * 2 * kSizeClasses + index;
  DecisionSlots* ds = state->decisions.get();
  if (ds && ds->last_key == memo) return ds->last;
  if (!ds) {
    state->decisions = std::make_unique<DecisionSlots>();
    ds = state->decisions.get();
    ds->key = table_key(state, s);
  }
  std::vector<const Decided*>& slots = ds->slots[static_cast<int>(op)];
  if (slots.empty()) slots.assign(2 * kSizeClasses, nullptr);
  const Decided*& slot = slots[index];
  if (slot) {
    ds->last_key = memo;
    ds->last = slot;
    return slot;
  }
  const std::string key = state->decisions->key + "|" + op_name(op) + "|" + std::to_string(cls) +
                          (commutative ? "|c" : "|n");
  ProcessTable& t = process_table();
  std::unique_lock<std::mutex> lock(t.mu);
  auto it = t.decided.find(key);
  if (it == t.decided.end()) {
    // Decided outside the lock: other communicators' calls go on meanwhile.
    lock.unlock();
    auto d = std::make_unique<Decided>(make_decided(state, s, op, bytes, commutative));
    lock.lock();
    it = t.decided.emplace(key, std::move(d)).first;  // a racing twin decided alike
  }
  slot = it->second.get();
  ds->last_key = memo;
  ds->last = slot;
  return slot;
}

}  // namespace hiercoll
