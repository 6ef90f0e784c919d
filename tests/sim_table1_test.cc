// The hierarchical paper's Table 1 (docs/SIMULATION.md, "The hierarchical
// paper's Table 1", tools/table1.py) under the model: on 16 nodes x 4, with
// a node's bandwidth ten times the network's (the paper's premise), the
// inter-node phase takes the vast majority of the hierarchical bcast,
// reduce and allreduce, so an ideal node (no latency, unbounded bandwidth
// inside it) could save them at most a fifth; an ideal node is never
// slower; scan, whose node phases carry the whole vector twice, gains more.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "sim/sweep.h"

namespace hiercoll {
namespace {

std::map<std::string, double> times(double shm_alpha, double shm_bandwidth) {
  SimOptions o;
  o.ranks_per_node.assign(16, 4);
  o.ops = {"bcast", "reduce", "allreduce", "scan", "barrier"};
  o.sizes = {4, 256 << 10, 1 << 20};
  o.impls = {"hier:bcast", "hier:reduce", "hier:allreduce", "hier:scan", "hier:barrier"};
  o.model.alpha_us = 50;
  o.model.bandwidth_gbps = 0.117;
  o.model.shm_alpha_us = shm_alpha;
  o.model.shm_bandwidth_gbps = shm_bandwidth;
  o.model.reduce_gbps = 1;
  std::map<std::string, double> t;
  for (const SimPoint& p : run_sweep(o, sim_layout(o), nullptr, false))
    if (p.simulated && p.impl == "hier:" + p.op) t[p.op + " " + std::to_string(p.bytes)] = p.result.time_us;
  return t;
}

TEST(SimTable1, TheInterNodePhaseDominatesTheHierarchicalCollectives) {
  const std::map<std::string, double> full = times(1, 1.17), ideal = times(0, 1e6);
  ASSERT_EQ(full.size(), 13u);  // 4 operations x 3 sizes and barrier
  for (const auto& [point, t] : full) {
    ASSERT_TRUE(ideal.count(point)) << point;
    EXPECT_LE(ideal.at(point), t * (1 + 1e-9)) << point;
    EXPECT_GT(ideal.at(point), 0) << point;
  }
  for (const char* op : {"bcast", "reduce", "allreduce"})
    for (int64_t b : {256 << 10, 1 << 20}) {
      const std::string point = std::string(op) + " " + std::to_string(b);
      EXPECT_GE(ideal.at(point) / full.at(point), 0.8) << point;
    }
  const std::string scan = "scan " + std::to_string(1 << 20), bcast = "bcast " + std::to_string(1 << 20);
  EXPECT_LT(ideal.at(scan) / full.at(scan), ideal.at(bcast) / full.at(bcast));
}

}  // namespace
}  // namespace hiercoll
