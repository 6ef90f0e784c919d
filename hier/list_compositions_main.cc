// `./hiercoll algorithms` (after the flat registry): the hierarchical
// compositions, one line each:
//   <op> hier:<name> [segmented] <needs...>
#include <cstdio>
#include <string>

#include "hier/hier_registry.h"

namespace {

std::string need_names(uint32_t needs) {
  static const struct { uint32_t bit; const char* name; } kNames[] = {
      {hiercoll::kNeedOrderForNonCommutative, "consecutive-ranks-if-non-commutative"},
      {hiercoll::kNeedConsecutive, "consecutive-ranks"},
      {hiercoll::kNeedUniform, "uniform-nodes"},
      {hiercoll::kTwoLevelsOnly, "two-levels"},
      {hiercoll::kNeedAllCounts, "all-counts"},
      {hiercoll::kNeedNodeRows, "node-rows"},
      {hiercoll::kNodeRowsEverywhere, "node-rows-everywhere"},
  };
  std::string s;
  for (const auto& n : kNames)
    if (needs & n.bit) s += std::string(" ") + n.name;
  return s;
}

}  // namespace

int main() {
  for (const hiercoll::HierComposition& c : hiercoll::all_compositions())
    std::printf("%s hier:%s%s%s\n", hiercoll::op_name(c.op), c.name, c.segmented ? " segmented" : "",
                need_names(c.needs).c_str());
  return 0;
}
