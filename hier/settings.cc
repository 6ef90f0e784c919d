#include "hier/settings.h"

#include <cctype>
#include <cstdlib>
#include <functional>

#include "flat/registry.h"

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

void parse_algorithm(Op op, const std::string& v, const std::string& source, Settings* s) {
  if (v.empty()) {
    s->algorithm[static_cast<int>(op)].clear();
    return;
  }
  if (find_algorithm(op, v)) {
    s->algorithm[static_cast<int>(op)] = v;
    return;
  }
  std::string known;
  for (const Algorithm* a : algorithms_for(op)) known += std::string(known.empty() ? "" : ", ") + a->name;
  set_error(s, source + "=" + v + ": unknown " + op_name(op) + " algorithm (known: " + known + ")");
}

void parse_segment(const std::string& v, const std::string& source, Settings* s) {
  char* end = nullptr;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < 0) set_error(s, source + "=" + v + ": not a byte count");
  else s->segment_bytes = n;
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
    const std::string op = op_name(static_cast<Op>(i));
    const std::string key = env ? "HIERCOLL_" + upper(op) + "_ALGORITHM" : "hiercoll_" + op + "_algorithm";
    if (const char* v = get(key)) parse_algorithm(static_cast<Op>(i), v, key, s);
  }
  const std::string seg_key = env ? "HIERCOLL_SEGMENT_BYTES" : "hiercoll_segment_bytes";
  if (const char* v = get(seg_key)) parse_segment(v, seg_key, s);
}

}  // namespace

const Settings& env_settings() {
  static const Settings s = [] {
    Settings r;
    apply(&r, [](const std::string& k) { return std::getenv(k.c_str()); }, true);
    const char* v = std::getenv("HIERCOLL_VERBOSE");
    r.verbose = v && *v && std::string(v) != "0";
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
