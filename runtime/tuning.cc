#include "runtime/tuning.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

#include "algorithms/registry.h"
#include "hier/hier_registry.h"
#include "runtime/figures_probe.h"

namespace hiercoll {

namespace {

std::string method_problem(Op op, const Method& m) {
  const std::string o = op_name(op);
  switch (m.kind) {
    case Method::kNative: return "";
    case Method::kFlat: return find_algorithm(op, m.name) ? "" : "no " + o + " algorithm '" + m.name + "'";
    case Method::kHier: {
      if (!find_composition(op, m.name)) return "no " + o + " composition '" + m.name + "'";
      if (m.inter.empty()) return "";
      const std::vector<std::string> inter = inter_algorithm_names(op);
      if (std::find(inter.begin(), inter.end(), m.inter) == inter.end())
        return "no inter-node algorithm '" + m.inter + "' for " + o;
      return "";
    }
  }
  return "";
}

struct Loaded {
  TuningFile file;
  bool usable = false;
  // The model's figures per layout decided by (select/tuning_file.h
  // figures_entry), made once.
  std::map<const TuningEntry*, Figures> figures;
  std::map<std::string, bool> said_missing;  // layouts told about (verbose)
};

}  // namespace

std::string check_tuning_names(const TuningFile& f) {
  for (size_t e = 0; e < f.entries.size(); ++e)
    for (int i = 0; i < kNumOps; ++i) {
      const std::vector<TunedRange>& ranges = f.entries[e].ranges[i];
      for (size_t r = 0; r < ranges.size(); ++r) {
        const std::string why = method_problem(static_cast<Op>(i), ranges[r].method);
        if (!why.empty())
          return "entries[" + std::to_string(e) + "].ops." + op_name(static_cast<Op>(i)) + "[" + std::to_string(r) +
                 "].method: " + why;
      }
    }
  return "";
}

const TuningEntry* tuning_entry(const std::string& path, const Layout& L, bool verbose, bool speak,
                                const Figures** figures) {
  if (figures) *figures = &machine_figures();
  if (path.empty()) return nullptr;
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Loaded>> files;
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<Loaded>& slot = files[path];
  if (!slot) {
    // Read once per process, never again (the decisions of a process do not
    // change), and an unusable file said only by the rank 0 of the first
    // communicator that uses it: a process that stays silent then stays
    // silent, so a job says it once.
    slot = std::make_unique<Loaded>();
    std::string error;
    if (load_tuning_file(path, &slot->file, &error)) {
      const std::string names = check_tuning_names(slot->file);
      if (names.empty()) slot->usable = true;
      else error = path + ": " + names;
      for (const TuningEntry& e : slot->file.entries)
        if (e.has_model) slot->figures[&e] = figures_of_entry(path, e);
    }
    if (!slot->usable && speak)
      std::fprintf(stderr, "hiercoll: tuning file %s; using the built-in rules\n", error.c_str());
  }
  if (!slot->usable) return nullptr;
  const LayoutKey key = layout_key(L);
  const TuningEntry* e = find_entry(slot->file, key);
  if (const TuningEntry* from = figures ? figures_entry(slot->file, key) : nullptr)
    *figures = &slot->figures.at(from);
  if (!e && verbose && speak) {
    bool& said = slot->said_missing[layout_text(key)];
    if (!said)
      std::fprintf(stderr, "hiercoll: tuning file %s has no entry for layout %s; using the built-in rules\n",
                   path.c_str(), layout_text(key).c_str());
    said = true;
  }
  return e;
}

}  // namespace hiercoll
