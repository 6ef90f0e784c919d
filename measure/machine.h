// What the job runs on: emulated or real nodes (shared-memory domains), the
// physical machines under them (same kernel boot id) and their cores, and
// Open MPI's yield-when-idle mode. Collective over `comm`.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "measure/results.h"

namespace hcbench {

struct Machine {
  LayoutInfo layout;
  std::vector<int> node_of;             // node index of every rank
  std::vector<std::string> node_names;  // processor name of each node's lowest rank
  int machines = 1;                     // physical machines (distinct boot ids)
  int max_ranks_per_machine = 1;
  int cores_per_machine = 1;            // on the most loaded machine
  bool oversubscribed = false;          // some machine runs more ranks than it has cores
  std::string yield_when_idle;          // "1", "0" or "?" (Open MPI's mpi_yield_when_idle)
  std::string mpi_library;              // MPI_Get_library_version, first line

  // Ranks of node `n`, ascending.
  std::vector<int> ranks_of_node(int n) const;
  // "8 ranks on 4 nodes (2 per node, by slot) share 2 cores of 1 machine (4.0 ranks per core, ...)".
  std::string header() const;
  // "4 nodes x 2 ranks (8 ranks on 2 cores)" for plot titles.
  std::string short_context() const;
};

Machine discover_machine(MPI_Comm comm);

}  // namespace hcbench
