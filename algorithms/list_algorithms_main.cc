// `./hiercoll algorithms`: the registry, one line per algorithm:
//   <op> <name> [segmented] <restrictions...> file=<algorithms/ file>
#include <cstdio>

#include "algorithms/registry.h"

int main() {
  for (const hiercoll::Algorithm& a : hiercoll::all_algorithms()) {
    const std::string r = hiercoll::restriction_names(a.restrictions);
    std::printf("%s %s%s%s%s file=algorithms/%s\n", hiercoll::op_name(a.op), a.name, a.segmented ? " segmented" : "",
                r.empty() ? "" : " ", r.c_str(), a.file);
  }
  return 0;
}
