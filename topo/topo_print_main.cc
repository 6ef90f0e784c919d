// Prints the topology topo/ detects for MPI_COMM_WORLD: one line per rank
// and a summary per node.  `./hiercoll topo` runs it on an emulated cluster.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "topo/topology.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const hiercoll::Topology* t = nullptr;
  if (hiercoll::get_topology(MPI_COMM_WORLD, &t) != MPI_SUCCESS) {
    std::fprintf(stderr, "hiercoll topo: topology detection failed on rank %d\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char host[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPI_Get_processor_name(host, &len);
  std::vector<char> hosts(size_t(size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  if (rank == 0) {
    const hiercoll::Layout& L = *t->layout;
    std::printf("hiercoll topology of MPI_COMM_WORLD: %s\n", L.describe().c_str());
    for (int r = 0; r < size; ++r)
      std::printf("rank %3d  host %-12s node %2d  local %2d  %-10s %s %d\n", r, &hosts[size_t(r) * MPI_MAX_PROCESSOR_NAME],
                  L.node_of[r], L.local_rank[r], L.is_master(r) ? "master" : "-", L.socket_level.c_str(),
                  L.socket_of[r]);
    for (int n = 0; n < L.num_nodes; ++n) {
      std::string ranks;
      for (int r : L.node_ranks[n]) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
      std::printf("node %2d  host %-12s %d rank(s) [%s]  master %d\n", n,
                  &hosts[size_t(L.master_of_node(n)) * MPI_MAX_PROCESSOR_NAME], L.node_size(n), ranks.c_str(),
                  L.master_of_node(n));
    }
  }
  MPI_Finalize();
  return 0;
}
