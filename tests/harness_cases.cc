// Deliberately failing and hanging tests, run by harness_test.sh to prove
// that the MPI test main reports them (disabled in normal runs).
#include <mpi.h>
#include <unistd.h>

#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

class Harness : public MpiTest {};

TEST_F(Harness, Passes) { EXPECT_EQ(world_size() > 0, true); }

TEST_F(Harness, DISABLED_FailsOnRankOneOnly) { EXPECT_NE(world_rank(), 1) << "rank one disagrees"; }

TEST_F(Harness, DISABLED_HangsOnRankZero) {
  if (world_rank() == 0) {
    int x;
    MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  // never sent
  }
}

}  // namespace
}  // namespace hiercoll::testing
