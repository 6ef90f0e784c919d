// Parameterising GoogleTest suites over the algorithm registry.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "algorithms/registry.h"

namespace hiercoll::testing {

inline std::vector<const Algorithm*> every_algorithm() {
  std::vector<const Algorithm*> v;
  for (const Algorithm& a : all_algorithms()) v.push_back(&a);
  return v;
}

// The algorithms of the rooted operations that can run in arrival order
// (bcast, reduce, gather, scatter; arrival/arrival_order.h).
inline std::vector<const Algorithm*> rooted_algorithms() {
  std::vector<const Algorithm*> v;
  for (const Algorithm& a : all_algorithms())
    if (a.op == Op::kBcast || a.op == Op::kReduce || a.op == Op::kGather || a.op == Op::kScatter) v.push_back(&a);
  return v;
}

// "<op>_<name>", usable as a test name.
inline std::string algorithm_test_name(const ::testing::TestParamInfo<const Algorithm*>& info) {
  std::string n = std::string(op_name(info.param->op)) + "_" + info.param->name;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

}  // namespace hiercoll::testing
