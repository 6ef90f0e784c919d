// What the runtime looks up in a tuning file: the layout key of a
// communicator's layout (topo's make_layout), the node of every rank under
// a key, the range of a size, the size a call is looked up by, and the
// names checked against the registries (runtime/tuning.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "runtime/tuning.h"
#include "select/tuning_file.h"
#include "tests/tuning_sample.h"
#include "topo/topology.h"

namespace hiercoll::testing {
namespace {

Layout layout_of(const std::vector<int>& node_key) {
  return make_layout(node_key, std::vector<int>(node_key.size(), 0), "none");
}

LayoutKey key(std::vector<int> ranks_per_node, const std::string& placement, std::vector<int> node_of = {}) {
  LayoutKey k;
  k.ranks_per_node = std::move(ranks_per_node);
  k.placement = placement;
  k.node_of = std::move(node_of);
  return k;
}

struct KeyCase {
  std::vector<int> node_key;  // any value per node, as topo sees them
  LayoutKey want;
  std::string text;
};

TEST(LayoutKey, ClassifiesPlacements) {
  const std::vector<KeyCase> cases = {
      {{0, 0, 1, 1, 2, 2, 3, 3}, key({2, 2, 2, 2}, "slot"), "4x2 slot"},
      {{5, 5, 5, 9, 7, 7}, key({3, 1, 2}, "slot"), "3,1,2 slot"},
      {{0, 0, 0, 0}, key({4}, "slot"), "1x4 slot"},
      {{4, 3, 2}, key({1, 1, 1}, "slot"), "3x1 slot"},
      {{0, 1, 2, 3, 0, 1, 2, 3}, key({2, 2, 2, 2}, "node"), "4x2 node"},
      // mpirun --map-by node over nodes of 3, 1 and 2 slots: full nodes are skipped.
      {{70, 10, 50, 70, 50, 70}, key({3, 1, 2}, "node"), "3,1,2 node"},
      {{0, 1, 0, 1, 0}, key({3, 2}, "node"), "3,2 node"},
      {{0, 1, 1, 0}, key({2, 2}, "list", {0, 1, 1, 0}), "2x2 list"},
      {{0, 1, 0, 0, 1, 2}, key({3, 2, 1}, "list", {0, 1, 0, 0, 1, 2}), "3,2,1 list"},
      // Round-robin counts but not round-robin order.
      {{0, 1, 2, 0, 0, 2}, key({3, 1, 2}, "list", {0, 1, 2, 0, 0, 2}), "3,1,2 list"},
  };
  for (const KeyCase& c : cases) {
    const Layout L = layout_of(c.node_key);
    const LayoutKey got = layout_key(L);
    EXPECT_TRUE(got == c.want) << c.text << ": got " << layout_text(got);
    EXPECT_EQ(layout_text(got), c.text);
    EXPECT_EQ(got.ranks(), L.size) << c.text;
    // The key gives back every rank's node.
    EXPECT_EQ(nodes_of(got), L.node_of) << c.text;
  }
}

TEST(LayoutKey, NodesOfEachPlacement) {
  EXPECT_EQ(nodes_of(key({3, 1, 2}, "slot")), (std::vector<int>{0, 0, 0, 1, 2, 2}));
  EXPECT_EQ(nodes_of(key({3, 1, 2}, "node")), (std::vector<int>{0, 1, 2, 0, 2, 0}));
  EXPECT_EQ(nodes_of(key({1, 3}, "node")), (std::vector<int>{0, 1, 1, 1}));
  EXPECT_EQ(nodes_of(key({2, 2}, "node")), (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(nodes_of(key({2, 2}, "list", {0, 1, 1, 0})), (std::vector<int>{0, 1, 1, 0}));
}

TEST(LayoutKey, EntryFoundByTheKeyOfItsLayout) {
  const TuningFile f = sample_tuning_file();
  EXPECT_EQ(find_entry(f, layout_key(layout_of({0, 0, 1, 1, 2, 2, 3, 3}))), &f.entries[0]);
  EXPECT_EQ(find_entry(f, layout_key(layout_of({0, 1, 2, 0, 2, 0}))), &f.entries[1]);
  EXPECT_EQ(find_entry(f, layout_key(layout_of({0, 1, 1, 0}))), &f.entries[2]);
  // Same counts, other placement: no entry.
  EXPECT_EQ(find_entry(f, layout_key(layout_of({0, 1, 2, 3, 0, 1, 2, 3}))), nullptr);
  EXPECT_EQ(find_entry(f, layout_key(layout_of({0, 0, 0, 1, 2, 2}))), nullptr);
  EXPECT_EQ(find_entry(f, layout_key(layout_of({0, 1, 0, 1}))), nullptr);
}

TEST(FindRange, Boundaries) {
  // allreduce: [0, 2048) [2048, 1 MiB) [1 MiB, -1); scan: [8, 64) [4096, -1).
  const TuningFile f = sample_tuning_file();
  const TuningEntry& slot = f.entries[0];
  const std::vector<TunedRange>& ar = slot.ranges[static_cast<int>(Op::kAllreduce)];
  EXPECT_EQ(find_range(slot, Op::kAllreduce, 0), &ar[0]);
  EXPECT_EQ(find_range(slot, Op::kAllreduce, 2047), &ar[0]);
  EXPECT_EQ(find_range(slot, Op::kAllreduce, 2048), &ar[1]);
  EXPECT_EQ(find_range(slot, Op::kAllreduce, (1 << 20) - 1), &ar[1]);
  EXPECT_EQ(find_range(slot, Op::kAllreduce, 1 << 20), &ar[2]);
  EXPECT_EQ(find_range(slot, Op::kAllreduce, std::numeric_limits<int64_t>::max()), &ar[2]);
  EXPECT_EQ(find_range(slot, Op::kReduce, 100), nullptr);

  const TuningEntry& rr = f.entries[1];
  const std::vector<TunedRange>& scan = rr.ranges[static_cast<int>(Op::kScan)];
  EXPECT_EQ(find_range(rr, Op::kScan, 7), nullptr);
  EXPECT_EQ(find_range(rr, Op::kScan, 8), &scan[0]);
  EXPECT_EQ(find_range(rr, Op::kScan, 63), &scan[0]);
  EXPECT_EQ(find_range(rr, Op::kScan, 64), nullptr);  // the gap
  EXPECT_EQ(find_range(rr, Op::kScan, 4095), nullptr);
  EXPECT_EQ(find_range(rr, Op::kScan, 4096), &scan[1]);
  EXPECT_EQ(find_range(rr, Op::kExscan, 4096), nullptr);
}

CollArgs args_of(Op op, int size, int64_t count, std::vector<int64_t> counts = {}) {
  CollArgs a;
  a.op = op;
  a.size = size;
  a.count = count;
  a.counts = std::move(counts);
  return a;
}

TEST(TuningBytes, PerOperation) {
  // Vectors: all their bytes.
  for (Op op : {Op::kBcast, Op::kReduce, Op::kAllreduce, Op::kScan, Op::kExscan})
    EXPECT_EQ(tuning_bytes(op, 8, args_of(op, 4, 1000)), 8000) << op_name(op);
  EXPECT_EQ(tuning_bytes(Op::kBcast, 1, args_of(Op::kBcast, 6, 12345)), 12345);
  // Block collectives: one rank's block (the unit), whatever the group size.
  for (Op op : {Op::kAllgather, Op::kGather, Op::kScatter, Op::kAlltoall}) {
    EXPECT_EQ(tuning_bytes(op, 24, args_of(op, 4, 1)), 24) << op_name(op);
    EXPECT_EQ(tuning_bytes(op, 24, args_of(op, 8, 1)), 24) << op_name(op);
  }
  // reduce_scatter: the mean block.
  EXPECT_EQ(tuning_bytes(Op::kReduceScatter, 8, args_of(Op::kReduceScatter, 4, 0, {1, 2, 3, 6})), 24);
  EXPECT_EQ(tuning_bytes(Op::kReduceScatter, 4, args_of(Op::kReduceScatter, 3, 0, {5, 5, 5})), 20);
  EXPECT_EQ(tuning_bytes(Op::kBarrier, 0, args_of(Op::kBarrier, 4, 0)), 0);
}

// The sample with one method of entry e, op, range r replaced.
TuningFile with_method(size_t e, Op op, size_t r, const std::string& text) {
  TuningFile f = sample_tuning_file();
  std::string error;
  EXPECT_TRUE(parse_method(text, &f.entries[e].ranges[static_cast<int>(op)][r].method, &error)) << error;
  return f;
}

TEST(CheckTuningNames, SampleAndValidNames) {
  EXPECT_EQ(check_tuning_names(sample_tuning_file()), "");
  EXPECT_EQ(check_tuning_names(with_method(1, Op::kScan, 1, "hier:scan inter=chain")), "");
  EXPECT_EQ(check_tuning_names(with_method(0, Op::kBcast, 0, "hier:bcast_pipelined inter=pipelined_binary_tree")), "");
  EXPECT_EQ(check_tuning_names(with_method(0, Op::kBarrier, 0, "hier:barrier")), "");
}

struct BadName {
  size_t entry;
  Op op;
  size_t range;
  std::string method;
  std::string error;
};

TEST(CheckTuningNames, UnknownNamesAreNamedWithTheirKey) {
  const std::vector<BadName> cases = {
      {0, Op::kAllreduce, 2, "flat:rings", "entries[0].ops.allreduce[2].method: no allreduce algorithm 'rings'"},
      {0, Op::kBcast, 0, "flat:dissemination", "entries[0].ops.bcast[0].method: no bcast algorithm 'dissemination'"},
      {0, Op::kAllreduce, 0, "hier:bcast", "entries[0].ops.allreduce[0].method: no allreduce composition 'bcast'"},
      {1, Op::kScan, 0, "hier:scans", "entries[1].ops.scan[0].method: no scan composition 'scans'"},
      {0, Op::kAllreduce, 1, "hier:allreduce_pipelined inter=bruck",
       "entries[0].ops.allreduce[1].method: no inter-node algorithm 'bruck' for allreduce"},
      {0, Op::kBarrier, 0, "hier:barrier inter=dissemination",
       "entries[0].ops.barrier[0].method: no inter-node algorithm 'dissemination' for barrier"},
      {2, Op::kReduceScatter, 0, "hier:reduce_scatters", "entries[2].ops.reduce_scatter[0].method: no reduce_scatter"},
  };
  for (const BadName& c : cases) {
    const std::string got = check_tuning_names(with_method(c.entry, c.op, c.range, c.method));
    EXPECT_EQ(got.rfind(c.error, 0), 0u) << c.method << ": " << got;
  }
}

}  // namespace
}  // namespace hiercoll::testing
