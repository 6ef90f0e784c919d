/* Which function of Open MPI's collective table a communicator would run:
 * reads the communicator's coll function pointer (Open MPI's internal
 * headers, installed with libopenmpi-dev) and names it with dladdr(). The
 * benchmark uses it to confirm that the "han" communicator really runs
 * HAN and to fill the CSV's algorithm column for native and han. */
#ifndef HIERCOLL_BENCH_OMPI_PROBE_H_
#define HIERCOLL_BENCH_OMPI_PROBE_H_

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The symbol behind comm's `op` entry ("bcast", "reduce", "allreduce",
 * "allgather", "alltoall", "reduce_scatter_block", "scan", "exscan",
 * "barrier", "gather", "scatter"), e.g. "mca_coll_han_bcast_intra_dynamic";
 * NULL when unknown (not Open MPI, no internal headers, unnamed symbol).
 * The string is static. */
const char* hcb_ompi_coll_function(MPI_Comm comm, const char* op);

#ifdef __cplusplus
}
#endif

#endif /* HIERCOLL_BENCH_OMPI_PROBE_H_ */
