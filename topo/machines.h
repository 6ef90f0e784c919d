// The physical machines under a communicator's ranks: which ranks share a
// kernel (its boot id, equal whatever namespaces the emulated cluster's
// nodes run in; the host name where the kernel has none) and how many
// CPUs each has.  The benchmark's machine header and the runtime's
// figures probe read it.
#pragma once

#include <mpi.h>

namespace hiercoll {

struct MachineLoad {
  int machines = 1;              // distinct boot ids
  int max_ranks_per_machine = 1; // on the most loaded machine (ranks per CPU)
  int cpus_per_machine = 1;      // logical CPUs of that machine
  bool oversubscribed = false;   // some machine runs more ranks than it has CPUs
};

// Collective over comm: every rank's boot id (hashed) and CPU count go to
// rank 0, which tallies them per machine; every rank gets the tally.
MachineLoad machine_load(MPI_Comm comm);

}  // namespace hiercoll
