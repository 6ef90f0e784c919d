// The start and end of an MPI process as hiercoll sees them: right after
// MPI_Init every process computes MPI_COMM_WORLD's topology (a collective
// over world, where all processes are anyway), so the first collective on a
// new communicator costs only its private duplicate, the model's figures
// are probed or read where HIERCOLL_FIGURES asks, and the progress thread
// starts where asked for; MPI_Finalize stops it and prints the statistics.
#include <mpi.h>

#include "runtime/figures_probe.h"
#include "runtime/progress_thread.h"
#include "runtime/settings.h"
#include "runtime/profile.h"
#include "runtime/stats.h"
#include "topo/topology.h"

namespace {

int after_init(int rc, int provided) {
  // With HIERCOLL_MODE=off the process keeps MPI's start-up untouched.
  if (rc != MPI_SUCCESS || hiercoll::env_settings().mode == hiercoll::Mode::kOff) return rc;
  if (hiercoll::init_world_topology() == MPI_SUCCESS) {
    const hiercoll::Topology* world = nullptr;
    if (hiercoll::get_topology(MPI_COMM_WORLD, &world) == MPI_SUCCESS)
      hiercoll::init_machine_figures(hiercoll::env_settings().figures, hiercoll::env_settings().verbose, *world);
  }
  hiercoll::start_progress_thread(provided);
  return rc;
}

}  // namespace

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  int provided = MPI_THREAD_SINGLE;
  if (rc == MPI_SUCCESS) PMPI_Query_thread(&provided);
  return after_init(rc, provided);
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  return after_init(rc, rc == MPI_SUCCESS ? *provided : MPI_THREAD_SINGLE);
}

int MPI_Finalize(void) {
  hiercoll::stop_progress_thread();
  hiercoll::report_stats();
  hiercoll::write_profile();
  return PMPI_Finalize();
}

}  // extern "C"
