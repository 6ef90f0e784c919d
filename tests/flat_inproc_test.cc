// Every registered flat algorithm against the reference, in-process, over
// the matrix: group sizes 1..64 and spot sizes up to 1000, every
// root for small groups, counts 0, 1, 7 and above a million, every data case
// (contiguous, non-contiguous, pair/MINLOC, non-commutative), in place and
// not, and tiny segments that force the many-segment path; the v-variants
// with irregular counts (zeros included), back to back and reversed with
// gaps, and skewed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "tests/support/algorithm_params.h"
#include "tests/support/inproc_check.h"
#include "tests/support/sanitize_mode.h"

namespace hiercoll::testing {
namespace {

class FlatAlgorithm : public ::testing::TestWithParam<const Algorithm*> {
 protected:
  // Runs a scenario if the algorithm applies to it; counts what ran.
  void run(Scenario sc) {
    sc.algo = GetParam();
    if (!sc.data) sc.data = &data_case("int_sum");
    if (!scenario_applies(sc)) return;
    ++ran_;
    const std::string err = check_inprocess(sc);
    ASSERT_EQ(err, "") << sc.describe();
  }
  int ran_ = 0;
};

// Under the sanitizers, which slow the matrix down about ten times: every
// size to 12 and spot sizes (powers of two and their neighbours), for
// memory errors rather than structure.
std::vector<int> group_sizes() {
  std::vector<int> v;
  if (sanitize_mode()) {
    for (int p = 1; p <= 12; ++p) v.push_back(p);
    for (int p : {16, 17, 31, 33, 64, 127}) v.push_back(p);
    return v;
  }
  for (int p = 1; p <= 64; ++p) v.push_back(p);
  for (int p : {100, 127, 128, 1000}) v.push_back(p);
  return v;
}

TEST_P(FlatAlgorithm, EveryGroupSize) {
  for (int p : group_sizes()) {
    // Keep the largest groups' data small: the check is about structure.
    const Op op = GetParam()->op;
    const int64_t count = p >= 1000 && (is_block_op(op) || is_v_op(op)) ? 1 : 7;
    Scenario sc;
    sc.p = p;
    sc.root = (p * 3 / 5) % p;
    sc.count = count;
    sc.seg_units = 2;
    run(sc);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(ran_, 0) << "no group size applies";
}

// Every root of every group to 16 (to 8 under the sanitizers), spot roots
// (first, second, middle, last two) of larger groups.
TEST_P(FlatAlgorithm, EveryRoot) {
  std::vector<std::pair<int, std::vector<int>>> cases;
  const int every_root_to = sanitize_mode() ? 8 : 16;
  for (int p = 1; p <= every_root_to; ++p) {
    std::vector<int> roots;
    for (int r = 0; r < p; ++r) roots.push_back(r);
    cases.push_back({p, roots});
  }
  for (int p : sanitize_mode() ? std::vector<int>{13, 33} : std::vector<int>{33, 64, 100})
    cases.push_back({p, {0, 1, p / 2, p - 2, p - 1}});
  for (auto& [p, roots] : cases)
    for (int root : roots)
      for (int64_t count : {0, 1, 7})
        for (int gaps = 0; gaps < (is_v_op(GetParam()->op) ? 2 : 1); ++gaps) {
          Scenario sc;
          sc.p = p;
          sc.root = root;
          sc.count = count;
          sc.seg_units = 3;
          sc.gaps = gaps == 1;
          run(sc);
          if (HasFatalFailure()) return;
        }
}

TEST_P(FlatAlgorithm, EveryDataCaseInPlaceOrNot) {
  for (const DataCase& dc : data_cases())
    for (int p : {1, 2, 3, 5, 8, 13})
      for (int64_t count : {0, 1, 7, 33})
        for (bool in_place : {false, true})
          for (int root : {0, p / 2, p - 1})
            for (int gaps = 0; gaps < (is_v_op(GetParam()->op) ? 2 : 1); ++gaps) {
              Scenario sc;
              sc.p = p;
              sc.root = root;
              sc.count = count;
              sc.data = &dc;
              sc.in_place = in_place;
              sc.seg_units = 4;
              sc.gaps = gaps == 1;
              run(sc);
              if (HasFatalFailure()) return;
            }
}

TEST_P(FlatAlgorithm, SegmentSizes) {
  for (int p : {2, 6, 9, 16})
    for (int64_t seg : {1, 3, 10, 1000, 0}) {
      Scenario sc;
      sc.p = p;
      sc.root = 1 % p;
      sc.count = 100;
      sc.seg_units = seg;
      run(sc);
      if (HasFatalFailure()) return;
    }
}

// (A sixteenth of that under the sanitizers, in as many segments.)
TEST_P(FlatAlgorithm, MoreThanAMillionElements) {
  const int64_t elements = sanitize_mode() ? 1 << 16 : 1 << 20;
  for (int p : {4, 7}) {
    Scenario sc;
    sc.p = p;
    sc.root = 1;
    const Op op = GetParam()->op;
    sc.count = is_block_op(op) || is_v_op(op) ? elements / p + 3 : elements + 3;
    sc.seg_units = elements / 16;
    run(sc);
    if (HasFatalFailure()) return;
  }
}

TEST_P(FlatAlgorithm, IrregularReduceScatterCounts) {
  if (GetParam()->op != Op::kReduceScatter) GTEST_SKIP() << "reduce_scatter only";
  for (const DataCase& dc : data_cases())
    for (int p : {1, 2, 3, 4, 5, 7, 8, 12, 16})
      for (bool in_place : {false, true}) {
        Scenario sc;
        sc.p = p;
        sc.data = &dc;
        sc.in_place = in_place;
        for (int r = 0; r < p; ++r) sc.counts.push_back((r * 3 + 1) % 5);  // zeros included
        run(sc);
        if (HasFatalFailure()) return;
      }
}

// Skewed counts (one rank's block thousands of times the others', at
// either end) for the operations with per-rank counts: reduce_scatter
// (a non-commutative operation too) and the v-variants (back to back and
// with gaps; the other tests run their irregular pattern both ways).
TEST_P(FlatAlgorithm, SkewedCounts) {
  const Op op = GetParam()->op;
  if (op != Op::kReduceScatter && !is_v_op(op)) GTEST_SKIP() << "per-rank counts only";
  for (const char* dc : {"int_sum", "matmul"})
    for (int p : {2, 7, 16})
      for (int heavy : {0, p - 1}) {
        Scenario sc;
        sc.p = p;
        sc.root = p / 2;
        sc.data = &data_case(dc);
        sc.counts.assign(p, 1);
        sc.counts[heavy] = 5000;
        sc.gaps = heavy == 0;
        run(sc);
        if (HasFatalFailure()) return;
      }
}

INSTANTIATE_TEST_SUITE_P(Registry, FlatAlgorithm, ::testing::ValuesIn(every_algorithm()), algorithm_test_name);

}  // namespace
}  // namespace hiercoll::testing

