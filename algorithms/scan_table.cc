#include "algorithms/registry.h"
#include "algorithms/scan.h"

namespace hiercoll {

void add_scan_algorithms(std::vector<Algorithm>* out) {
  out->push_back({Op::kScan, "recursive_doubling", 0, build_scan_recursive_doubling});
  out->push_back({Op::kExscan, "recursive_doubling", 0, build_exscan_recursive_doubling});
  out->push_back({Op::kScan, "pipelined_binary_tree", 0, build_scan_pipelined_tree, true});
  out->push_back({Op::kExscan, "pipelined_binary_tree", 0, build_exscan_pipelined_tree, true});
  out->push_back({Op::kScan, "twotree", 0, build_scan_twotree, true});
  out->push_back({Op::kExscan, "twotree", 0, build_exscan_twotree, true});
  out->push_back({Op::kScan, "chain", 0, build_scan_chain, true});
  out->push_back({Op::kExscan, "chain", 0, build_exscan_chain, true});
}

}  // namespace hiercoll
