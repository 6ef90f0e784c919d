#include "select/method.h"

namespace hiercoll {

namespace {

// Registry names: letters, digits and '_' (nothing that could break a line
// or the method's own syntax).
bool is_name(const std::string& s) {
  for (char ch : s)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
  return true;
}

}  // namespace

std::string method_text(const Method& m) {
  switch (m.kind) {
    case Method::kNative: return "native";
    case Method::kFlat: return "flat:" + m.name + (m.dynamic ? " dynamic" : "");
    case Method::kHier: return "hier:" + m.name + (m.inter.empty() ? "" : " inter=" + m.inter);
  }
  return "";
}

bool parse_method(const std::string& text, Method* m, std::string* error) {
  Method out;
  auto fail = [&](const std::string& why) {
    *error = "method '" + text + "': " + why + " (expected native, flat:<algorithm>, flat:<algorithm> dynamic,"
             " hier:<composition> or hier:<composition> inter=<algorithm>)";
    return false;
  };
  if (text == "native") {
    *m = out;
    return true;
  }
  std::string rest;
  if (text.rfind("flat:", 0) == 0) {
    out.kind = Method::kFlat;
    rest = text.substr(5);
    const size_t sp = rest.find(' ');
    if (sp != std::string::npos) {
      if (rest.substr(sp + 1) != "dynamic") return fail("after the algorithm only dynamic");
      out.dynamic = true;
      rest = rest.substr(0, sp);
    }
  } else if (text.rfind("hier:", 0) == 0) {
    out.kind = Method::kHier;
    rest = text.substr(5);
    const size_t sp = rest.find(' ');
    if (sp != std::string::npos) {
      const std::string tail = rest.substr(sp + 1);
      if (tail.rfind("inter=", 0) != 0 || tail.size() == 6) return fail("after the composition only inter=<algorithm>");
      out.inter = tail.substr(6);
      rest = rest.substr(0, sp);
    }
  } else {
    return fail("unknown kind");
  }
  if (rest.empty() || !is_name(rest)) return fail("bad name");
  if (!is_name(out.inter)) return fail("bad inter-node algorithm");
  out.name = rest;
  *m = out;
  return true;
}

}  // namespace hiercoll
