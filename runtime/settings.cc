#include "runtime/settings.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <vector>

#include "flat/registry.h"
#include "hier/hier_registry.h"

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

void set_error(Settings* s, const std::string& what) {
  if (s->error.empty()) s->error = what;
}

void parse_mode(const std::string& v, const std::string& source, Settings* s) {
  if (v == "hier") s->mode = Mode::kHier;
  else if (v == "flat") s->mode = Mode::kFlat;
  else if (v == "off") s->mode = Mode::kOff;
  else set_error(s, source + "=" + v + ": unknown mode (hier, flat or off)");
}

// A name knob: `v` must be one of `known` (empty resets it); `what` names
// the kind for the error ("bcast composition").
void parse_name(const std::string& v, const std::string& source, const std::vector<std::string>& known,
                const std::string& what, std::string* out, Settings* s) {
  if (v.empty() || std::find(known.begin(), known.end(), v) != known.end()) {
    *out = v;
    return;
  }
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  set_error(s, source + "=" + v + ": unknown " + what + " (known: " + (list.empty() ? "none" : list) + ")");
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

void parse_segment(const std::string& v, const std::string& source, Settings* s) {
  char* end = nullptr;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < 0) set_error(s, source + "=" + v + ": not a byte count");
  else s->segment_bytes = n;
}

void parse_dynamic(const std::string& v, const std::string& source, Settings* s) {
  if (v == "off") s->dynamic = false;
  else if (v == "depth") s->dynamic = true, s->dynamic_fill = FillOrder::kDepthFirst;
  else if (v == "breadth") s->dynamic = true, s->dynamic_fill = FillOrder::kBreadthFirst;
  else set_error(s, source + "=" + v + ": unknown arrival-order setting (off, depth or breadth)");
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Walks every knob: `get(name)` returns the value or nullptr.
void apply(Settings* s, const std::function<const char*(const std::string&)>& get, bool env) {
  const std::string mode_key = env ? "HIERCOLL_MODE" : "hiercoll";
  if (const char* v = get(mode_key)) parse_mode(v, mode_key, s);
  for (int i = 0; i < kNumOps; ++i) {
    const Op op = static_cast<Op>(i);
    const std::string name = op_name(op);
    const struct {
      const char* suffix;  // of the info key; the variable's is its upper case
      std::string* slot;
      std::vector<std::string> (*known)(Op);
      const char* what;
    } knobs[] = {
        {"_algorithm", &s->algorithm[i], algorithm_names, " algorithm"},
        {"_composition", &s->composition[i], composition_names, " composition"},
        {"_inter_algorithm", &s->inter_algorithm[i], inter_algorithm_names, " inter-node algorithm"},
    };
    for (const auto& k : knobs) {
      const std::string key = env ? "HIERCOLL_" + upper(name + k.suffix) : "hiercoll_" + name + k.suffix;
      if (const char* v = get(key)) parse_name(v, key, k.known(op), name + k.what, k.slot, s);
    }
  }
  const std::string seg_key = env ? "HIERCOLL_SEGMENT_BYTES" : "hiercoll_segment_bytes";
  if (const char* v = get(seg_key)) parse_segment(v, seg_key, s);
  const std::string dyn_key = env ? "HIERCOLL_DYNAMIC" : "hiercoll_dynamic";
  if (const char* v = get(dyn_key)) parse_dynamic(v, dyn_key, s);
  // A file that cannot be used is not an error of the call: the runtime
  // says so once and keeps the built-in rules (runtime/tuning.h).
  // "none" (an info value cannot be empty) means no file.
  if (const char* v = get(env ? "HIERCOLL_TUNING_FILE" : "hiercoll_tuning_file"))
    s->tuning_file = std::string(v) == "none" ? "" : v;
}

}  // namespace

const Settings& env_settings() {
  static const Settings s = [] {
    Settings r;
    apply(&r, [](const std::string& k) { return std::getenv(k.c_str()); }, true);
    auto flag = [](const char* name) {
      const char* v = std::getenv(name);
      return v && *v && std::string(v) != "0";
    };
    r.verbose = flag("HIERCOLL_VERBOSE");
    r.progress_thread = flag("HIERCOLL_PROGRESS_THREAD");
    return r;
  }();
  return s;
}

Settings apply_info(const Settings& base, MPI_Info info) {
  Settings s = base;
  if (info == MPI_INFO_NULL) return s;
  std::string value;
  apply(&s,
        [&](const std::string& key) -> const char* {
          // No info object holds a longer key (hiercoll_reduce_scatter_inter_algorithm),
          // and MPI_Info_get raises an error for one.
          if (key.size() >= MPI_MAX_INFO_KEY) return nullptr;
          char buf[MPI_MAX_INFO_VAL + 1];
          int flag = 0;
          MPI_Info_get(info, key.c_str(), MPI_MAX_INFO_VAL, buf, &flag);
          if (!flag) return nullptr;
          value = buf;
          return value.c_str();
        },
        false);
  return s;
}

}  // namespace hiercoll
