// GoogleTest main for in-process tests: a single-process MPI job, because the
// in-process executor uses MPI's datatype engine (no mpirun needed).
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
