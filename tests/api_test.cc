// The public API on every emulated layout: the C++ overloads against
// closed-form results, the knobs (info hints really switch the path),
// statistics, and bad input reported with the right MPI error class.
#include <mpi.h>

#include <numeric>
#include <string>
#include <vector>

#include "hier/hiercoll.hpp"
#include "hier/stats.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

class ApiTest : public MpiTest {
 protected:
  void SetUp() override {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  // A duplicate of MPI_COMM_WORLD with the given hints.
  static MPI_Comm comm_with(std::vector<std::pair<const char*, const char*>> hints) {
    MPI_Info info;
    MPI_Info_create(&info);
    for (auto& [k, v] : hints) MPI_Info_set(info, k, v);
    MPI_Comm c;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
    MPI_Info_free(&info);
    return c;
  }
  int rank_ = 0, size_ = 1;
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

// Bad input: the MPI error class through the communicator's handler.
class ApiErrors : public ApiTest {
 protected:
  void SetUp() override {
    ApiTest::SetUp();
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  }
  void TearDown() override {
    MPI_Comm_free(&comm_);
    ApiTest::TearDown();
  }
  static int error_class(int rc) {
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
};

TEST_F(ApiErrors, NegativeCount) {
  int buf[2] = {0, 0};
  EXPECT_EQ(error_class(MPI_Bcast(buf, -1, MPI_INT, 0, comm_)), MPI_ERR_COUNT);
  EXPECT_EQ(error_class(MPI_Allreduce(buf, buf + 1, -3, MPI_INT, MPI_SUM, comm_)), MPI_ERR_COUNT);
  EXPECT_EQ(error_class(MPI_Allgather(buf, -1, MPI_INT, buf, 1, MPI_INT, comm_)), MPI_ERR_COUNT);
}

TEST_F(ApiErrors, InvalidRoot) {
  int buf = 0;
  EXPECT_EQ(error_class(MPI_Bcast(&buf, 1, MPI_INT, size_, comm_)), MPI_ERR_ROOT);
  EXPECT_EQ(error_class(MPI_Reduce(&buf, &buf, 1, MPI_INT, MPI_SUM, -1, comm_)), MPI_ERR_ROOT);
  std::vector<int> all(size_);
  EXPECT_EQ(error_class(MPI_Gather(&buf, 1, MPI_INT, all.data(), 1, MPI_INT, size_ + 3, comm_)), MPI_ERR_ROOT);
}

TEST_F(ApiErrors, NullBufferWithData) {
  int buf = 0;
  EXPECT_EQ(error_class(MPI_Bcast(nullptr, 4, MPI_INT, 0, comm_)), MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(MPI_Allreduce(&buf, nullptr, 1, MPI_INT, MPI_SUM, comm_)), MPI_ERR_BUFFER);
  // A null buffer with no data is fine.
  EXPECT_EQ(MPI_Bcast(nullptr, 0, MPI_INT, 0, comm_), MPI_SUCCESS);
}

TEST_F(ApiErrors, InvalidDatatypeAndOperation) {
  int a = 1, b = 0;
  EXPECT_EQ(error_class(MPI_Bcast(&a, 1, MPI_DATATYPE_NULL, 0, comm_)), MPI_ERR_TYPE);
  EXPECT_EQ(error_class(MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_OP_NULL, comm_)), MPI_ERR_OP);
  // MINLOC needs a pair type, as MPI itself says.
  EXPECT_EQ(error_class(MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_MINLOC, comm_)), MPI_ERR_OP);
}

TEST_F(ApiErrors, NullAndFreedCommunicator) {
  // Errors on MPI_COMM_NULL go to MPI_COMM_WORLD's handler.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int a = 1;
  EXPECT_EQ(error_class(MPI_Bcast(&a, 1, MPI_INT, 0, MPI_COMM_NULL)), MPI_ERR_COMM);
  EXPECT_EQ(error_class(MPI_Barrier(MPI_COMM_NULL)), MPI_ERR_COMM);
  MPI_Comm c, stale;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  stale = c;
  MPI_Comm_free(&c);
  EXPECT_EQ(c, MPI_COMM_NULL);
  EXPECT_EQ(error_class(MPI_Bcast(&a, 1, MPI_INT, 0, stale)), MPI_ERR_COMM);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

TEST_F(ApiErrors, UnknownAlgorithmNameIsAnError) {
  MPI_Comm c = comm_with({{"hiercoll_bcast_algorithm", "no_such_algorithm"}});
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  int a = 0;
  EXPECT_EQ(error_class(MPI_Bcast(&a, 1, MPI_INT, 0, c)), MPI_ERR_ARG);
  MPI_Comm_free(&c);
}

}  // namespace
}  // namespace hiercoll::testing
