// The bounds on pipeline segments (bounded_seg_units, select/flat_rules.h):
// at least kMinSegmentBytes unless the message makes at most
// kMaxSmallSegments smaller ones, at most kMaxSegments per message; and
// decide_flat saying what it raised.
#include <gtest/gtest.h>

#include "select/flat_choice.h"
#include "select/flat_rules.h"

namespace hiercoll {
namespace {

// A reduce of `count` units on 4 ranks.
CollArgs reduce_of(int64_t count) {
  CollArgs a;
  a.op = Op::kReduce;
  a.size = 4;
  a.count = count;
  return a;
}

TEST(SegmentBounds, TinySegmentsOfALongMessageAreRaisedToTheFloor) {
  // 16 MiB of doubles: 100 bytes asked (12 units) -> 32 KiB (4096 units).
  EXPECT_EQ(bounded_seg_units(reduce_of(2 << 20), 8, 12), kMinSegmentBytes / 8);
  // 1 MiB of bytes: 64 segments of 16 KiB are allowed below the floor.
  EXPECT_EQ(bounded_seg_units(reduce_of(1 << 20), 1, 100), (1 << 20) / kMaxSmallSegments);
}

TEST(SegmentBounds, AVeryLongMessageHasAtMostMaxSegments) {
  const int64_t units = int64_t(256) << 20;  // 256 MiB of bytes
  EXPECT_EQ(bounded_seg_units(reduce_of(units), 1, 100), units / kMaxSegments);
}

TEST(SegmentBounds, AShortMessageKeepsDozensOfSegments) {
  // 300 doubles in 1-unit segments: cut into at most kMaxSmallSegments.
  const int64_t seg = bounded_seg_units(reduce_of(300), 8, 1);
  EXPECT_EQ(seg, (300 + kMaxSmallSegments - 1) / kMaxSmallSegments);
  EXPECT_GE((300 + seg - 1) / seg, kMaxSmallSegments - 4);
}

TEST(SegmentBounds, SegmentsWithinTheBoundsAndNoSegmentationStay) {
  EXPECT_EQ(bounded_seg_units(reduce_of(2 << 20), 8, 65536), 65536);
  EXPECT_EQ(bounded_seg_units(reduce_of(2 << 20), 8, 0), 0);
  EXPECT_EQ(bounded_seg_units(reduce_of(0), 8, 5), 5);
}

TEST(SegmentBounds, DecideFlatSaysWhatItRaised) {
  FlatRequest req;
  req.forced = "pipelined_binary_tree";
  req.segment_bytes = 100;
  const FlatDecision d = decide_flat(reduce_of(2 << 20), 8, req);
  ASSERT_STREQ(d.algorithm->name, "pipelined_binary_tree");
  EXPECT_EQ(d.seg_units, kMinSegmentBytes / 8);
  EXPECT_EQ(d.raised_segment_from, 100);
  // The default segment of a long message is within the bounds.
  req.segment_bytes = 0;
  const FlatDecision by_default = decide_flat(reduce_of(2 << 20), 8, req);
  EXPECT_EQ(by_default.raised_segment_from, 0);
  EXPECT_GE(by_default.seg_units * 8, kMinSegmentBytes);
}

}  // namespace
}  // namespace hiercoll
