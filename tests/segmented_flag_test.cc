// Algorithm::segmented against behaviour: a flagged algorithm's schedule for
// a long message differs between two segment sizes on some rank; an
// unflagged one's is identical on every rank (segment 0 included).  The
// tuner relies on the flag to decide which algorithms it tries at several
// segment sizes.
#include <gtest/gtest.h>

#include <string>

#include "algorithms/registry.h"
#include "tests/support/algorithm_params.h"
#include "tests/support/inproc_check.h"

namespace hiercoll::testing {
namespace {

// Whether any rank's schedule differs between segments of `s1` and `s2`
// units.  Block collectives segment in blocks (one unit per rank), the
// others in elements of a long vector.
bool schedules_differ(const Algorithm& a, int p, int64_t s1, int64_t s2) {
  for (int rank = 0; rank < p; ++rank) {
    CollArgs args;
    args.op = a.op;
    args.rank = rank;
    args.size = p;
    args.root = (a.restrictions & kRootZeroOnly) ? 0 : 1;
    args.count = is_block_op(a.op) ? 1 : 100000;
    if (a.op == Op::kReduceScatter) {
      args.counts.assign(p, 100000 / p);
      args.count = args.counts[rank];
    }
    if (is_v_op(a.op)) {  // the test matrix's irregular blocks
      Scenario sc;
      sc.op = a.op;
      sc.p = p;
      sc.root = args.root;
      sc.count = 100000 / p;
      static const DataCase kInts{"int", MPI_INT, MPI_INT, 1, MPI_SUM, true};  // no MPI_Init here
      sc.data = &kInts;
      sc.all_counts = (a.restrictions & kAllCounts) != 0;  // as after the runtime's count exchange
      args = scenario_args(sc, rank);
    }
    args.seg_units = s1;
    const std::string first = build_schedule(a, args).to_string();
    args.seg_units = s2;
    if (build_schedule(a, args).to_string() != first) return true;
  }
  return false;
}

class SegmentedFlag : public ::testing::TestWithParam<const Algorithm*> {};

TEST_P(SegmentedFlag, MatchesSchedules) {
  const Algorithm& a = *GetParam();
  const int p = 8;  // fits every restriction (power of two)
  const bool block = is_block_op(a.op);
  const int64_t small = block ? 1 : 100, large = block ? 3 : 1000;
  if (a.segmented) {
    EXPECT_TRUE(schedules_differ(a, p, small, large)) << "flagged segmented, but seg_units changes nothing";
  } else {
    EXPECT_FALSE(schedules_differ(a, p, small, large)) << "reads seg_units, but not flagged segmented";
    EXPECT_FALSE(schedules_differ(a, p, 0, small)) << "reads seg_units, but not flagged segmented";
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, SegmentedFlag, ::testing::ValuesIn(every_algorithm()), algorithm_test_name);

}  // namespace
}  // namespace hiercoll::testing
