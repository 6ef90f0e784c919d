// Every registered flat algorithm, forced through a communicator's info
// hints, against the MPI library's own collective on the same data: every
// data case, counts 0, 1, 7, 1000 and one above 100000, every root, in place
// and not (v-variants: irregular counts with zeros, displacements back to
// back or reversed with gaps); and bcast, gather, scatter, allgather,
// alltoall and the v-variants with different datatypes of one type
// signature; segmented algorithms with tiny segments.
// Runs on every emulated layout.
#include <mpi.h>

#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "runtime/stats.h"
#include "tests/support/algorithm_params.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

std::vector<ApiOp> api_ops_of(Op op) {
  switch (op) {
    case Op::kBcast: return {ApiOp::kBcast};
    case Op::kReduce: return {ApiOp::kReduce};
    case Op::kAllreduce: return {ApiOp::kAllreduce};
    case Op::kAllgather: return {ApiOp::kAllgather};
    case Op::kReduceScatter: return {ApiOp::kReduceScatterBlock, ApiOp::kReduceScatter};
    case Op::kAlltoall: return {ApiOp::kAlltoall};
    case Op::kScan: return {ApiOp::kScan};
    case Op::kExscan: return {ApiOp::kExscan};
    case Op::kBarrier: return {ApiOp::kBarrier};
    case Op::kGather: return {ApiOp::kGather};
    case Op::kScatter: return {ApiOp::kScatter};
    case Op::kGatherv: return {ApiOp::kGatherv};
    case Op::kScatterv: return {ApiOp::kScatterv};
    case Op::kAllgatherv: return {ApiOp::kAllgatherv};
    case Op::kAlltoallv: return {ApiOp::kAlltoallv, ApiOp::kAlltoallw};
  }
  return {};
}

class FlatMpi : public MpiTest, public ::testing::WithParamInterface<const Algorithm*> {
 protected:
  // A duplicate of MPI_COMM_WORLD on which hiercoll runs only this algorithm
  // (with segments of `segment_bytes`, when given).
  MPI_Comm forced_comm(const char* segment_bytes = nullptr) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "hiercoll", "flat");
    const std::string key = std::string("hiercoll_") + op_name(GetParam()->op) + "_algorithm";
    MPI_Info_set(info, key.c_str(), GetParam()->name);
    if (segment_bytes) MPI_Info_set(info, "hiercoll_segment_bytes", segment_bytes);
    MPI_Comm comm;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    return comm;
  }
  // Runs one comparison with MPI (`compare` returns "" when this rank
  // agrees); the forced algorithm must have run unless it does not fit
  // (then the fallback is counted).
  template <typename Compare>
  void check(ApiOp api, const std::string& what, Compare compare) {
    const long fallbacks = local_fallbacks(api);
    EXPECT_EQ(compare(), "");
    const std::string ran = last_algorithm();
    if (ran != "none" && local_fallbacks(api) == fallbacks) {
      EXPECT_EQ(ran, GetParam()->name) << what;
      ++forced_runs_;
    }
  }
  void check(const MpiCase& c, MPI_Comm comm) {
    check(c.api, c.describe(), [&] { return compare_with_native(c, comm); });
  }
  // Different datatypes of one type signature on the two sides (bcast: the
  // root and the others), every root; bcast of 7 and 100003 times 3
  // doubles (counts no group size divides; the latter past the segment, at
  // the first and the last root: every root's relabelling is the small
  // count's).
  void check_typed(ApiOp api, MPI_Comm comm, int size) {
    const bool bcast = api == ApiOp::kBcast;
    if (!bcast && api != ApiOp::kGather && api != ApiOp::kScatter && api != ApiOp::kAllgather &&
        api != ApiOp::kAlltoall && !is_vector(api))
      return;
    for (int n : bcast ? std::vector<int>{7, 100003} : std::vector<int>{1, 7, 1000})
      for (int root : typed_roots(api, n, size))
        for (const TypedCase& c : typed_pairs(api, 3 * n, root))
          check(api, c.describe(), [&] { return compare_typed_with_native(c, comm); });
  }
  static std::vector<int> typed_roots(ApiOp api, int n, int size) {
    if (!is_rooted(api)) return {0};
    if (n > 1000) return {0, size - 1};
    std::vector<int> all(size);
    for (int r = 0; r < size; ++r) all[r] = r;
    return all;
  }
  int forced_runs_ = 0;
};

TEST_P(FlatMpi, MatchesMpi) {
  MPI_Comm comm = forced_comm();
  int size;
  MPI_Comm_size(comm, &size);
  const Algorithm& a = *GetParam();
  for (ApiOp api : api_ops_of(a.op)) {
    const bool barrier = api == ApiOp::kBarrier;
    for (const DataCase& dc : data_cases()) {
      for (int count : {0, 1, 7, 1000}) {
        for (int root = 0; root < (is_rooted(api) ? size : 1); ++root) {
          for (int in_place = 0; in_place < (allows_in_place(api) ? 2 : 1); ++in_place)
            for (int gaps = 0; gaps < (is_vector(api) ? 2 : 1); ++gaps)
              check(MpiCase{api, &dc, count, root, in_place == 1, gaps == 1}, comm);
        }
      }
      if (barrier) break;
    }
    if (!barrier) check(MpiCase{api, &data_case("int_sum"), 100003, size - 1, false}, comm);
    check_typed(api, comm, size);
  }
  // On every layout something fits most algorithms; pow2-only ones may
  // fall back everywhere on 3x2 and 3+1+2.
  if (!(a.restrictions & kPow2Only) || (size & (size - 1)) == 0) {
    EXPECT_GT(forced_runs_, 0);
  }
  MPI_Comm_free(&comm);
}

// Segmented algorithms with tiny segments (8 bytes asked: one element of at
// most 8 bytes, or one block; raised so that a message makes at most
// kMaxSmallSegments, select/flat_rules.h): dozens of messages between a pair of ranks,
// matched in order, cut through a non-contiguous datatype; a
// non-commutative operation at a middle root takes the reductions'
// forwarding path.
TEST_P(FlatMpi, TinySegments) {
  const Algorithm& a = *GetParam();
  if (!a.segmented) GTEST_SKIP() << "not segmented";
  MPI_Comm comm = forced_comm("8");
  int size;
  MPI_Comm_size(comm, &size);
  for (ApiOp api : api_ops_of(a.op))
    for (const char* dc : {"int_sum", "vector_sum", "matmul"})
      for (int count : {7, 300})
        for (int root : {0, size / 2, size - 1})
          for (int in_place = 0; in_place < (allows_in_place(api) ? 2 : 1); ++in_place)
            check(MpiCase{api, &data_case(dc), count, root, in_place == 1}, comm);
  EXPECT_GT(forced_runs_, 0);
  MPI_Comm_free(&comm);
}

INSTANTIATE_TEST_SUITE_P(Registry, FlatMpi, ::testing::ValuesIn(every_algorithm()), algorithm_test_name);

}  // namespace
}  // namespace hiercoll::testing
