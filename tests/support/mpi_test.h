// Base fixture of tests that run on every rank of an MPI job (see
// mpi_test_main.cc).  Derive MPI tests from it (TEST_F) so that a failure
// on any rank fails the test everywhere.  Tests must call the same
// collectives on every rank: use EXPECT_* for results and ASSERT_* only for
// conditions that are the same on every rank.
#pragma once

#include <gtest/gtest.h>

namespace hiercoll::testing {

int world_rank();
int world_size();
// The thread level main() asks MPI_Init_thread for (MPI_THREAD_SERIALIZED
// unless the test binary defines this function itself).
int mpi_test_thread_level();

class MpiTest : public ::testing::Test {
 protected:
  void TearDown() override;
};

// An MPI test that knows its rank in MPI_COMM_WORLD and the world's size.
class RankedMpiTest : public MpiTest {
 protected:
  void SetUp() override {
    rank_ = world_rank();
    size_ = world_size();
  }
  int rank_ = 0, size_ = 1;
};

}  // namespace hiercoll::testing
