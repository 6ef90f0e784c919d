/* An ordinary MPI program that passes a negative count to MPI_Bcast on
 * MPI_COMM_WORLD (default handler: errors are fatal). */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int x = 0;
  MPI_Bcast(&x, -5, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
