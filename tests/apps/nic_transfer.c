/* nic_transfer SENDERS MIB REPS — throughput from one emulated node to
 * another, for tests/nic_test.sh.
 *
 * Needs exactly two nodes with the same number of ranks, each node's ranks
 * consecutive (tools/cluster.sh --nodes 2 --ppn K). The first SENDERS ranks
 * of node 0 each send MIB MiB to the rank of node 1 with the same local
 * index, all at once (one MPI_Send each, after a barrier); the time runs
 * from that barrier to a barrier after the last message has arrived. Rank 0
 * prints the median over REPS repetitions (after one untimed one) of the
 * aggregate throughput, SENDERS * MIB MiB / time:
 *
 *   nic_transfer senders=2 bytes_each=16777216 reps=3 MBps=49.7
 *
 * (MB = 10^6 bytes, as tc's rates.) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static int parse_positive(const char* s, const char* what) {
  char* end;
  const long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1 || v > 4096) {
    fprintf(stderr, "nic_transfer: %s must be 1..4096, got '%s'\n", what, s);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return (int)v;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4) {
    if (rank == 0) fprintf(stderr, "usage: nic_transfer SENDERS MIB REPS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int senders = parse_positive(argv[1], "SENDERS");
  const int mib = parse_positive(argv[2], "MIB");
  const int reps = parse_positive(argv[3], "REPS");

  /* Check the layout: two nodes, ranks [0, ppn) on node 0, [ppn, 2 ppn) on node 1. */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ppn, local;
  MPI_Comm_size(node, &ppn);
  MPI_Comm_rank(node, &local);
  int ok = size == 2 * ppn && local == rank % ppn && senders <= ppn, all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (!all_ok) {
    if (rank == 0)
      fprintf(stderr, "nic_transfer: needs 2 nodes of equal, consecutive ranks and SENDERS <= ranks per node\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  const int bytes = mib << 20;
  char* buf = malloc((size_t)bytes);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < bytes; ++i) buf[i] = (char)i;
  const int sender = rank < senders, receiver = rank >= ppn && rank - ppn < senders;

  double* mbps = malloc(sizeof(double) * (size_t)reps);
  for (int r = -1; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (sender) MPI_Send(buf, bytes, MPI_BYTE, rank + ppn, 0, MPI_COMM_WORLD);
    if (receiver) MPI_Recv(buf, bytes, MPI_BYTE, rank - ppn, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    if (r >= 0) mbps[r] = (double)senders * bytes / ((MPI_Wtime() - t0) * 1e6);
  }
  if (rank == 0) {
    qsort(mbps, (size_t)reps, sizeof(double), cmp_double);
    printf("nic_transfer senders=%d bytes_each=%d reps=%d MBps=%.1f\n", senders, bytes, reps, mbps[reps / 2]);
  }
  free(mbps);
  free(buf);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
