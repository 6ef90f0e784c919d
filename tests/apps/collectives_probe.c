/* An ordinary MPI program that knows nothing of hiercoll: it runs every
 * collective hiercoll implements on MPI_COMM_WORLD and a split of it,
 * checks the results against closed forms, and prints a digest of all
 * results so that runs with and without the preloaded library can be
 * compared byte for byte.  Exit status 1 when a check fails. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t digest = 1469598103934665603ULL; /* FNV-1a */
static int failures = 0;

static void mix(const void* p, size_t n) {
  const unsigned char* b = p;
  for (size_t i = 0; i < n; ++i) digest = (digest ^ b[i]) * 1099511628211ULL;
}

static void expect(int ok, const char* what, int rank) {
  if (!ok) {
    fprintf(stderr, "probe: rank %d: %s is wrong\n", rank, what);
    ++failures;
  }
}

static void run(MPI_Comm comm, int n) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  double* v = malloc(sizeof(double) * n * p);
  double* w = malloc(sizeof(double) * n * p);
  long* l = malloc(sizeof(long) * n * p);
  long* m = malloc(sizeof(long) * n * p);
  for (int i = 0; i < n; ++i) v[i] = rank * 1000.0 + i;

  for (int root = 0; root < p; ++root) {
    for (int i = 0; i < n; ++i) w[i] = rank == root ? i * 3.0 + root : -1;
    MPI_Bcast(w, n, MPI_DOUBLE, root, comm);
    for (int i = 0; i < n; ++i) expect(w[i] == i * 3.0 + root, "bcast", rank);
    mix(w, sizeof(double) * n);
    MPI_Reduce(v, w, n, MPI_DOUBLE, MPI_SUM, root, comm);
    if (rank == root) {
      for (int i = 0; i < n; ++i) expect(w[i] == 1000.0 * p * (p - 1) / 2 + (double)i * p, "reduce", rank);
      mix(w, sizeof(double) * n);
    }
  }
  MPI_Allreduce(v, w, n, MPI_DOUBLE, MPI_MAX, comm);
  for (int i = 0; i < n; ++i) expect(w[i] == (p - 1) * 1000.0 + i, "allreduce", rank);
  mix(w, sizeof(double) * n);
  for (int i = 0; i < n; ++i) l[i] = rank + i;
  MPI_Scan(l, m, n, MPI_LONG, MPI_SUM, comm);
  for (int i = 0; i < n; ++i) expect(m[i] == (long)rank * (rank + 1) / 2 + (long)i * (rank + 1), "scan", rank);
  mix(m, sizeof(long) * n);
  MPI_Exscan(l, m, n, MPI_LONG, MPI_SUM, comm);
  if (rank > 0)
    for (int i = 0; i < n; ++i) expect(m[i] == (long)(rank - 1) * rank / 2 + (long)i * rank, "exscan", rank);
  MPI_Allgather(l, n, MPI_LONG, m, n, MPI_LONG, comm);
  for (int j = 0; j < p; ++j) expect(m[j * n] == j, "allgather", rank);
  mix(m, sizeof(long) * n * p);
  for (int j = 0; j < n * p; ++j) l[j] = rank * 100000L + j;
  MPI_Alltoall(l, n, MPI_LONG, m, n, MPI_LONG, comm);
  for (int j = 0; j < p; ++j) expect(m[j * n] == j * 100000L + (long)rank * n, "alltoall", rank);
  mix(m, sizeof(long) * n * p);
  MPI_Reduce_scatter_block(l, m, n, MPI_LONG, MPI_SUM, comm);
  expect(m[0] == 100000L * p * (p - 1) / 2 + (long)rank * n * p, "reduce_scatter_block", rank);
  mix(m, sizeof(long) * n);
  MPI_Gather(l, n, MPI_LONG, m, n, MPI_LONG, p - 1, comm);
  if (rank == p - 1) {
    for (int j = 0; j < p; ++j) expect(m[j * n] == j * 100000L, "gather", rank);
    mix(m, sizeof(long) * n * p);
  }
  MPI_Scatter(l, n, MPI_LONG, m, n, MPI_LONG, 0, comm);
  expect(m[0] == (long)rank * n, "scatter", rank);
  /* The v-variants: odd ranks' blocks n long, even ranks' one element. */
  int* cnt = malloc(sizeof(int) * p);
  int* dsp = malloc(sizeof(int) * p);
  for (int j = 0, pos = 0; j < p; ++j) cnt[j] = j % 2 ? n : 1, dsp[j] = pos, pos += cnt[j];
  MPI_Allgatherv(l, cnt[rank], MPI_LONG, m, cnt, dsp, MPI_LONG, comm);
  for (int j = 0; j < p; ++j) expect(m[dsp[j] + cnt[j] - 1] == j * 100000L + cnt[j] - 1, "allgatherv", rank);
  mix(m, sizeof(long) * (dsp[p - 1] + cnt[p - 1]));
  MPI_Gatherv(l, cnt[rank], MPI_LONG, m, cnt, dsp, MPI_LONG, p - 1, comm);
  if (rank == p - 1)
    for (int j = 0; j < p; ++j) expect(m[dsp[j]] == j * 100000L, "gatherv", rank);
  free(cnt), free(dsp);
  MPI_Barrier(comm);
  free(v), free(w), free(l), free(m);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
  const int counts[] = {1, 37, 5000, 100000};
  for (int k = 0; k < 4; ++k) {
    run(MPI_COMM_WORLD, counts[k]);
    run(half, counts[k]);
  }
  MPI_Comm_free(&half);
  int bad = 0;
  MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  unsigned long long mine = digest;
  unsigned long long* all = malloc(sizeof(unsigned long long) * size);
  MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    digest = 1469598103934665603ULL;
    mix(all, sizeof(unsigned long long) * size);
    printf("probe digest %016llx, %d failed checks\n", (unsigned long long)digest, bad);
  }
  free(all);
  MPI_Finalize();
  return bad ? 1 : 0;
}
