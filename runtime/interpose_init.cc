// The start and end of an MPI process as hiercoll sees them: right after
// MPI_Init every process computes MPI_COMM_WORLD's topology (a collective
// over world, where all processes are anyway), so the first collective on a
// new communicator costs only its private duplicate; MPI_Finalize prints the
// statistics.
#include <mpi.h>

#include "runtime/settings.h"
#include "runtime/profile.h"
#include "runtime/stats.h"
#include "topo/topology.h"

namespace {

int after_init(int rc) {
  // With HIERCOLL_MODE=off the process keeps MPI's start-up untouched.
  if (rc == MPI_SUCCESS && hiercoll::env_settings().mode != hiercoll::Mode::kOff) hiercoll::init_world_topology();
  return rc;
}

}  // namespace

extern "C" {

int MPI_Init(int* argc, char*** argv) { return after_init(PMPI_Init(argc, argv)); }

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  return after_init(PMPI_Init_thread(argc, argv, required, provided));
}

int MPI_Finalize(void) {
  hiercoll::report_stats();
  hiercoll::write_profile();
  return PMPI_Finalize();
}

}  // extern "C"
