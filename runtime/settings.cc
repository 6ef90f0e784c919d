#include "runtime/settings.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <functional>

#include "algorithms/registry.h"
#include "hier/hier_registry.h"
#include "topo/sockets.h"

namespace hiercoll {

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::kHier: return "hier";
    case Mode::kFlat: return "flat";
    case Mode::kOff: return "off";
  }
  return "?";
}

namespace {

// Reads a value into the settings; false with `why` set when it is refused.
using Parse = std::function<bool(const std::string& v, Settings* s, std::string* why)>;

struct Knob {
  KnobName name;
  Parse parse;
};

std::string listed(const std::vector<std::string>& known) {
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  return list.empty() ? "none" : list;
}

// A knob whose value is one of `known` names; `what` says which kind
// ("bcast composition").  `set` stores the value.
Parse one_of(std::vector<std::string> known, std::string what, std::function<void(const std::string&, Settings*)> set) {
  return [=](const std::string& v, Settings* s, std::string* why) {
    if (std::find(known.begin(), known.end(), v) == known.end()) {
      *why = "unknown " + what + " (known: " + listed(known) + ")";
      return false;
    }
    set(v, s);
    return true;
  };
}

std::vector<std::string> algorithm_names(Op op) {
  std::vector<std::string> v;
  for (const Algorithm* a : algorithms_for(op)) v.push_back(a->name);
  return v;
}

std::vector<std::string> composition_names(Op op) {
  std::vector<std::string> v;
  for (const HierComposition* c : compositions_for(op)) v.push_back(c->name);
  return v;
}

bool parse_bytes(const std::string& v, Settings* s, std::string* why) {
  errno = 0;
  char* end = nullptr;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) || *end != '\0' || errno == ERANGE) {
    *why = "not a byte count (a whole number, 0 or more)";
    return false;
  }
  s->segment_bytes = n;
  return true;
}

// A switch: 0 or 1.
Parse flag(bool Settings::*slot) {
  return [slot](const std::string& v, Settings* s, std::string* why) {
    if (v != "0" && v != "1") {
      *why = "not a switch (known: 0, 1)";
      return false;
    }
    s->*slot = v == "1";
    return true;
  };
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Per operation: the forced flat algorithm, composition and leaders'
// algorithm.
std::vector<Knob> per_op_knobs() {
  std::vector<Knob> t;
  for (int i = 0; i < kNumOps; ++i) {
    const Op op = static_cast<Op>(i);
    const std::string name = op_name(op);
    const struct {
      const char* suffix;  // of the info key; the variable's is its upper case
      std::string (Settings::*slot)[kNumOps];
      std::vector<std::string> known;
      const char* what;
    } per_op[] = {
        {"_algorithm", &Settings::algorithm, algorithm_names(op), " algorithm"},
        {"_composition", &Settings::composition, composition_names(op), " composition"},
        {"_inter_algorithm", &Settings::inter_algorithm, inter_algorithm_names(op), " inter-node algorithm"},
    };
    for (const auto& k : per_op)
      t.push_back({{"HIERCOLL_" + upper(name + k.suffix), "hiercoll_" + name + k.suffix},
                   one_of(k.known, name + k.what,
                          [slot = k.slot, i](const std::string& v, Settings* s) { (s->*slot)[i] = v; })});
  }
  return t;
}

// Arrival-order trees, and who leads a node in them.
std::vector<Knob> arrival_knobs() {
  return {
      {{"HIERCOLL_DYNAMIC", "hiercoll_dynamic"},
       one_of({"off", "depth", "breadth"}, "arrival-order setting",
              [](const std::string& v, Settings* s) {
                s->dynamic = v != "off";
                s->dynamic_fill = v == "breadth" ? FillOrder::kBreadthFirst : FillOrder::kDepthFirst;
              })},
      {{"HIERCOLL_DYNAMIC_LEADERS", "hiercoll_dynamic_leaders"},
       one_of({"first", "fixed"}, "node leader setting",
              [](const std::string& v, Settings* s) { s->dynamic_leaders = v == "first"; })},
  };
}

// The machine as hwloc describes it (the layout reads them; here they are
// only checked).
std::vector<Knob> machine_knobs() {
  return {
      {{"HIERCOLL_SOCKET_LEVEL", ""},
       [](const std::string& v, Settings*, std::string* why) {
         std::string level;
         if (parse_socket_level(v.c_str(), &level)) return true;
         *why = "unknown socket level (known: package, numa, none)";
         return false;
       }},
      {{"HIERCOLL_HWLOC_SYNTHETIC", ""},
       [](const std::string& v, Settings*, std::string* why) {
         if (valid_synthetic_topology(v.c_str())) return true;
         *why = "not a synthetic topology hwloc accepts (e.g. \"package:2 core:2 pu:1\")";
         return false;
       }},
      {{"HIERCOLL_FIGURES", ""},
       [](const std::string& v, Settings* s, std::string*) {
         s->figures = v == "builtin" ? "" : v;
         return true;
       }},
  };
}

// What the process does besides the calls: the profile, statistics,
// messages, the progress thread.
std::vector<Knob> process_knobs() {
  return {
      {{"HIERCOLL_PROFILE", ""},
       [](const std::string& v, Settings* s, std::string*) {
         s->profile_file = v;
         return true;
       }},
      {{"HIERCOLL_STATS", ""}, flag(&Settings::stats)},
      {{"HIERCOLL_VERBOSE", ""}, flag(&Settings::verbose)},
      {{"HIERCOLL_PROGRESS_THREAD", ""}, flag(&Settings::progress_thread)},
  };
}

// Every knob, once.  Environment-only knobs have no info key.
const std::vector<Knob>& knobs() {
  static const std::vector<Knob> table = [] {
    std::vector<Knob> t;
    t.push_back({{"HIERCOLL_MODE", "hiercoll"},
                 one_of({"hier", "flat", "off"}, "mode", [](const std::string& v, Settings* s) {
                   s->mode = v == "hier" ? Mode::kHier : v == "flat" ? Mode::kFlat : Mode::kOff;
                 })});
    const std::vector<Knob> per_op = per_op_knobs();
    t.insert(t.end(), per_op.begin(), per_op.end());
    t.push_back({{"HIERCOLL_SEGMENT_BYTES", "hiercoll_segment_bytes"}, parse_bytes});
    t.push_back({{"HIERCOLL_ONLINE_TUNING", "hiercoll_online_tuning"}, flag(&Settings::online_tuning)});
    // A file that cannot be used is not an error of the call: the runtime
    // says so once and keeps the built-in rules (runtime/tuning.h).
    // "none" (an info value cannot be empty) means no file.
    t.push_back({{"HIERCOLL_TUNING_FILE", "hiercoll_tuning_file"}, [](const std::string& v, Settings* s, std::string*) {
                   s->tuning_file = v == "none" ? "" : v;
                   return true;
                 }});
    for (const std::vector<Knob>& group : {arrival_knobs(), machine_knobs(), process_knobs()})
      t.insert(t.end(), group.begin(), group.end());
    return t;
  }();
  return table;
}

// Applies every knob `get(key)` has a value for, keys from the environment
// or the info object; the first refusal is the settings' error.
void apply(Settings* s, bool info, const std::function<const char*(const std::string& key)>& get) {
  for (const Knob& k : knobs()) {
    const std::string& key = info ? k.name.info : k.name.env;
    if (key.empty()) continue;
    const char* v = get(key);
    if (!v || !*v) continue;  // empty: as if not set (the default)
    std::string why;
    if (!k.parse(v, s, &why) && s->error.empty()) s->error = key + "=" + v + ": " + why;
  }
}

}  // namespace

std::vector<KnobName> knob_names() {
  std::vector<KnobName> v;
  for (const Knob& k : knobs()) v.push_back(k.name);
  return v;
}

Settings settings_from_env(const std::function<const char*(const char*)>& getenv) {
  Settings r;
  apply(&r, false, [&](const std::string& key) { return getenv(key.c_str()); });
  return r;
}

const Settings& env_settings() {
  static const Settings s = settings_from_env([](const char* k) { return std::getenv(k); });
  return s;
}

Settings apply_info(const Settings& base, MPI_Info info) {
  Settings s = base;
  if (info == MPI_INFO_NULL) return s;
  std::string value;
  apply(&s, true, [&](const std::string& key) -> const char* {
    // No info object holds a longer key (hiercoll_reduce_scatter_inter_algorithm),
    // and MPI_Info_get raises an error for one.
    if (key.size() >= MPI_MAX_INFO_KEY) return nullptr;
    char buf[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(info, key.c_str(), MPI_MAX_INFO_VAL, buf, &flag);
    if (!flag) return nullptr;
    value = buf;
    return value.c_str();
  });
  return s;
}

}  // namespace hiercoll
