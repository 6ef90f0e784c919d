// The public API on every emulated layout: the C++ overloads against
// closed-form results, the knobs (info hints really switch the path),
// statistics, and an unknown algorithm name reported as MPI_ERR_ARG (bad
// input in general: api_errors_test.cc).
#include <mpi.h>

#include <numeric>
#include <string>
#include <vector>

#include "runtime/hiercoll.hpp"
#include "runtime/stats.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

class ApiTest : public RankedMpiTest {
 protected:
  // A duplicate of MPI_COMM_WORLD with the given hints.
  static MPI_Comm comm_with(std::vector<std::pair<const char*, const char*>> hints) {
    return world_with_hints(hints);
  }
};

TEST_F(ApiTest, CppOverloadsGiveClosedFormResults) {
  const int p = size_, r = rank_;
  std::vector<long> mine(5);
  for (int i = 0; i < 5; ++i) mine[i] = r * 10 + i;
  std::vector<long> sum;
  EXPECT_EQ(allreduce(mine, sum, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sum[i], 10L * p * (p - 1) / 2 + long(i) * p);

  std::vector<long> pre;
  EXPECT_EQ(scan(mine, pre, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(pre[i], 10L * r * (r + 1) / 2 + long(i) * (r + 1));

  std::vector<double> v(3, r == p - 1 ? 2.5 : 0.0);
  EXPECT_EQ(bcast(v, p - 1, MPI_COMM_WORLD), MPI_SUCCESS);
  EXPECT_EQ(v, std::vector<double>(3, 2.5));

  std::vector<int> all;
  EXPECT_EQ(allgather(std::vector<int>{r, -r}, all, MPI_COMM_WORLD), MPI_SUCCESS);
  for (int j = 0; j < p; ++j) {
    EXPECT_EQ(all[2 * j], j);
    EXPECT_EQ(all[2 * j + 1], -j);
  }

  std::vector<int> to_each(p), from_each;
  for (int j = 0; j < p; ++j) to_each[j] = 100 * r + j;
  EXPECT_EQ(alltoall(to_each, from_each, MPI_COMM_WORLD), MPI_SUCCESS);
  for (int j = 0; j < p; ++j) EXPECT_EQ(from_each[j], 100 * j + r);

  std::vector<int> ones(2 * p, 1), block;
  EXPECT_EQ(reduce_scatter_block(ones, block, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
  EXPECT_EQ(block, std::vector<int>(2, p));

  std::vector<int> gathered, piece;
  EXPECT_EQ(gather(std::vector<int>{r}, gathered, 0, MPI_COMM_WORLD), MPI_SUCCESS);
  if (r == 0) {
    std::vector<int> expect(p);
    std::iota(expect.begin(), expect.end(), 0);
    EXPECT_EQ(gathered, expect);
  }
  std::vector<int> src(p);
  std::iota(src.begin(), src.end(), 7);
  EXPECT_EQ(scatter(src, piece, 1, 0, MPI_COMM_WORLD), MPI_SUCCESS);
  EXPECT_EQ(piece, std::vector<int>{7 + r});
  EXPECT_EQ(barrier(MPI_COMM_WORLD), MPI_SUCCESS);
}

// Every operation through the C API in its default mode equals MPI's.
// An in-place alltoallv whose blocks are all empty at displacements past 0
// (the fuzzer's case 18:* under UBSan: the copy aside was empty, and its
// null base was offset by the first displacement): succeeds, writes nothing.
TEST_F(ApiTest, InPlaceAlltoallvOfEmptyBlocksAtNonzeroDisplacements) {
  std::vector<int> counts(size_, 0), displs(size_, 1);
  std::vector<int> buf(4, 7);
  EXPECT_EQ(hiercoll_alltoallv(MPI_IN_PLACE, counts.data(), displs.data(), MPI_INT, buf.data(), counts.data(),
                               displs.data(), MPI_INT, MPI_COMM_WORLD),
            MPI_SUCCESS);
  EXPECT_EQ(buf, std::vector<int>(4, 7));
}

TEST_F(ApiTest, DefaultModeMatchesMpi) {
  for (int api = 0; api < kNumApiOps; ++api)
    for (const DataCase& dc : data_cases())
      for (int count : {1, 7, 300})
        for (int root : {0, size_ - 1})
          for (bool in_place : {false, true}) {
            const MpiCase c{static_cast<ApiOp>(api), &dc, count, root, in_place};
            if (in_place && !allows_in_place(c.api)) continue;
            EXPECT_EQ(compare_with_native(c, MPI_COMM_WORLD), "");
          }
}

TEST_F(ApiTest, HintOffGoesNative) {
  MPI_Comm off = comm_with({{"hiercoll", "off"}});
  const long native = local_count(ApiOp::kAllreduce, Path::kNative);
  const long ours = local_count(ApiOp::kAllreduce, Path::kFlat) + local_count(ApiOp::kAllreduce, Path::kHier);
  int x = rank_, y = 0;
  EXPECT_EQ(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, off), MPI_SUCCESS);
  EXPECT_EQ(y, size_ * (size_ - 1) / 2);
  EXPECT_EQ(local_count(ApiOp::kAllreduce, Path::kNative), native + 1);
  EXPECT_EQ(local_count(ApiOp::kAllreduce, Path::kFlat) + local_count(ApiOp::kAllreduce, Path::kHier), ours);
  EXPECT_STREQ(last_algorithm(), "native");
  MPI_Comm_free(&off);
}

TEST_F(ApiTest, HintFlatAndForcedAlgorithm) {
  MPI_Comm flat = comm_with({{"hiercoll", "flat"}, {"hiercoll_bcast_algorithm", "chain"}});
  const long before = local_count(ApiOp::kBcast, Path::kFlat);
  std::vector<int> v(10, rank_ == 0 ? 3 : 0);
  EXPECT_EQ(MPI_Bcast(v.data(), 10, MPI_INT, 0, flat), MPI_SUCCESS);
  EXPECT_EQ(v, std::vector<int>(10, 3));
  EXPECT_EQ(local_count(ApiOp::kBcast, Path::kFlat), before + 1);
  EXPECT_STREQ(last_algorithm(), "chain");
  MPI_Comm_free(&flat);
}

TEST_F(ApiTest, SetInfoSwitchesAnExistingCommunicator) {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  int x = 1, y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
  EXPECT_STRNE(last_algorithm(), "native");
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "hiercoll", "off");
  MPI_Comm_set_info(c, info);
  MPI_Info_free(&info);
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
  EXPECT_STREQ(last_algorithm(), "native");
  EXPECT_EQ(y, size_);
  MPI_Comm_free(&c);
}

TEST_F(ApiTest, ForcedAlgorithmThatDoesNotFitFallsBackVisibly) {
  // recursive halving reduce_scatter needs a commutative operation.
  MPI_Comm c = comm_with({{"hiercoll", "flat"}, {"hiercoll_reduce_scatter_algorithm", "recursive_halving"}});
  const DataCase& matmul = data_case("matmul");
  const long fallbacks = local_fallbacks(ApiOp::kReduceScatterBlock);
  EXPECT_EQ(compare_with_native(MpiCase{ApiOp::kReduceScatterBlock, &matmul, 3, 0, false}, c), "");
  EXPECT_EQ(local_fallbacks(ApiOp::kReduceScatterBlock), fallbacks + 1);
  EXPECT_STRNE(last_algorithm(), "recursive_halving");
  MPI_Comm_free(&c);
}

// MPI_BOTTOM with datatypes of absolute addresses, every root: a bcast
// whose datatype is not its bytes in order is unpacked after the schedule,
// to MPI_BOTTOM (a null address) as to any buffer.
TEST_F(ApiTest, MpiBottomWithAbsoluteAddresses) {
  for (int root = 0; root < size_; ++root) {
    int a[5];
    for (int i = 0; i < 5; ++i) a[i] = rank_ == root ? 10 * root + i : -1;
    a[2] = -7;  // the gap between the datatype's two blocks
    MPI_Aint at[2];
    MPI_Get_address(&a[0], &at[0]);
    MPI_Get_address(&a[3], &at[1]);
    const int lens[2] = {2, 2};
    MPI_Datatype t;
    MPI_Type_create_hindexed(2, lens, at, MPI_INT, &t);
    MPI_Type_commit(&t);
    EXPECT_EQ(MPI_Bcast(MPI_BOTTOM, 1, t, root, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(std::vector<int>(a, a + 5), (std::vector<int>{10 * root, 10 * root + 1, -7, 10 * root + 3, 10 * root + 4}))
        << "root " << root;
    MPI_Type_free(&t);
  }
  std::vector<int> all(size_, -1);
  MPI_Aint at;
  MPI_Get_address(all.data(), &at);
  const int one = 1;
  MPI_Datatype t;
  MPI_Type_create_hindexed(1, &one, &at, MPI_INT, &t);
  MPI_Type_commit(&t);
  const int mine = 3 * rank_;
  EXPECT_EQ(MPI_Allgather(&mine, 1, MPI_INT, MPI_BOTTOM, 1, t, MPI_COMM_WORLD), MPI_SUCCESS);
  for (int j = 0; j < size_; ++j) EXPECT_EQ(all[j], 3 * j);
  MPI_Type_free(&t);
}

// Bad input in general: tests/api_errors_test.cc.
TEST_F(ApiTest, UnknownAlgorithmNameIsAnError) {
  MPI_Comm c = comm_with({{"hiercoll_bcast_algorithm", "no_such_algorithm"}});
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  int a = 0, cls = 0;
  MPI_Error_class(MPI_Bcast(&a, 1, MPI_INT, 0, c), &cls);
  EXPECT_EQ(cls, MPI_ERR_ARG);
  MPI_Comm_free(&c);
}

}  // namespace
}  // namespace hiercoll::testing
