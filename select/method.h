// A method: how one collective call is carried out, as the tuner measures
// it and the tuning file names it:
//   native                          Open MPI's own collective
//   flat:<algorithm>                a flat algorithm on the whole communicator
//   flat:<algorithm> dynamic        ... its tree taken in arrival order
//                                   (arrival/arrival_order.h, depth first)
//   hier:<composition>              a hierarchical composition, phase rules decide
//   hier:<composition> inter=<alg>  ... with <alg> among the node leaders
// plus, separately, a segment size (0: the rules decide).
#pragma once

#include <string>

namespace hiercoll {

struct Method {
  enum Kind { kNative, kFlat, kHier };
  Kind kind = kNative;
  std::string name;   // flat algorithm or composition ("" for native)
  std::string inter;  // hier only: the leaders' algorithm ("" = phase rules)
  bool dynamic = false;  // flat only: in arrival order

  bool operator==(const Method& o) const {
    return kind == o.kind && name == o.name && inter == o.inter && dynamic == o.dynamic;
  }
  bool operator!=(const Method& o) const { return !(*this == o); }
};

std::string method_text(const Method& m);
// Inverse of method_text; false (and *error says why) on anything else.
bool parse_method(const std::string& text, Method* m, std::string* error);

}  // namespace hiercoll
