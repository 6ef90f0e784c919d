// The benchmark's link model (HIERCOLL_CLUSTER_NIC_BITS from tools/cluster.sh
// --nic) and the lower bound's use of a node's shared link.
#include "measure/link_model.h"

#include <gtest/gtest.h>

#include <string>

#include "measure/results.h"

namespace hcbench {
namespace {

TEST(LinkModel, ParsesTheLaunchersValue) {
  std::string error;
  const LinkModel none = parse_link_model(nullptr, &error);
  EXPECT_FALSE(none.active());
  EXPECT_TRUE(error.empty());

  const LinkModel m = parse_link_model("400000000", &error);
  EXPECT_TRUE(error.empty());
  ASSERT_TRUE(m.active());
  EXPECT_DOUBLE_EQ(m.bytes_per_us(), 50);
  EXPECT_EQ(describe_link_model(m).rfind("every node sends through one link of 400 Mbit/s (50.0 MB/s)", 0), 0u)
      << describe_link_model(m);
  EXPECT_NE(describe_link_model(parse_link_model("2000000000", &error)).find("2 Gbit/s (250.0 MB/s)"),
            std::string::npos);
  EXPECT_EQ(describe_link_model(none).rfind("none", 0), 0u);
}

TEST(LinkModel, RefusesBadValues) {
  for (const char* bad : {"", "fast", "0", "-5", "1e9x"}) {
    std::string error;
    EXPECT_FALSE(parse_link_model(bad, &error).active()) << bad;
    EXPECT_NE(error.find("HIERCOLL_CLUSTER_NIC_BITS"), std::string::npos) << bad;
  }
}

// A node's ranks share its link: the bound takes what the node's ranks
// carry together when that is more than one pair gets, never their number
// times one pair's bandwidth.
TEST(LinkModel, BoundUsesTheNodesLink) {
  Links l;
  l.inter = {true, 20, 1000};
  l.intra = {true, 1, 10000};
  l.node_out = {true, 30, 1000};  // two ranks at once: the same link
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 1000000, 4, l), 20 + 1000);
  EXPECT_DOUBLE_EQ(lower_bound_us("allreduce", 1000000, 4, l), 40 + 2 * 0.75 * 1000);
  l.node_out = {true, 30, 2000};  // no shared link: the node sends more
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 1000000, 4, l), 20 + 500);
  EXPECT_DOUBLE_EQ(lower_bound_us("reduce", 1000000, 4, l), 20 + 500);
  l.inter_busy = {true, 50, 4000};  // busy bound: never above the node's link
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 1000000, 4, l, true), 20 + 500);
  // On one node the intra-node link alone.
  EXPECT_DOUBLE_EQ(lower_bound_us("bcast", 10000, 1, l), 1 + 1);
}

}  // namespace
}  // namespace hcbench
