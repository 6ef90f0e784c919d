#include "measure/impl_spec.h"

#include "cli/args.h"
#include "measure/sizes.h"

namespace hcbench {

using hccli::split_list;

bool parse_impl(const std::string& text, ImplSpec* spec, std::string* error) {
  ImplSpec s;
  s.name = text;
  std::vector<std::string> parts = split_list(text, '@');
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

}  // namespace hcbench
