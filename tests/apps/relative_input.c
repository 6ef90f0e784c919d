/* An MPI program that reads a file named by a relative path, as
 * applications read their input decks (`lmp -in in.melt`): every rank
 * opens argv[1] from its working directory and reads one integer; the
 * ranks' sum (MPI_Allreduce) is printed by rank 0 with the folder.  Exit
 * status 1 when a rank cannot read the file. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, value = 0, ok = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  FILE* f = argc > 1 ? fopen(argv[1], "r") : NULL;
  if (!f || fscanf(f, "%d", &value) != 1) {
    char cwd[4096];
    fprintf(stderr, "relative_input: rank %d: cannot read '%s' in %s\n", rank, argc > 1 ? argv[1] : "",
            getcwd(cwd, sizeof cwd) ? cwd : "?");
    ok = 0;
  }
  if (f) fclose(f);
  int all_ok = 0, sum = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all_ok) {
    char cwd[4096];
    printf("relative_input: %d ranks read %s in %s, sum %d\n", size, argv[1], getcwd(cwd, sizeof cwd) ? cwd : "?",
           sum);
  }
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
