#include "topo/machines.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hiercoll {

namespace {

std::string boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (in && std::getline(in, id) && !id.empty()) return id;
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return std::string("host:") + host;
}

}  // namespace

MachineLoad machine_load(MPI_Comm comm) {
  int rank, size;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const unsigned long long mine[2] = {std::hash<std::string>()(boot_id()),
                                      static_cast<unsigned long long>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)))};
  std::vector<unsigned long long> all(rank == 0 ? 2 * static_cast<size_t>(size) : 0);
  PMPI_Gather(mine, 2, MPI_UNSIGNED_LONG_LONG, all.data(), 2, MPI_UNSIGNED_LONG_LONG, 0, comm);
  int tally[4] = {1, 1, 1, 0};  // machines, max ranks, cpus, oversubscribed
  if (rank == 0) {
    std::map<unsigned long long, std::pair<int, int>> per_machine;  // id -> (ranks, cpus)
    for (int r = 0; r < size; ++r) {
      auto& e = per_machine[all[2 * static_cast<size_t>(r)]];
      ++e.first;
      e.second = static_cast<int>(all[2 * static_cast<size_t>(r) + 1]);
    }
    tally[0] = static_cast<int>(per_machine.size());
    double worst = -1;
    for (const auto& e : per_machine) {
      const double load = static_cast<double>(e.second.first) / e.second.second;
      if (load > worst) worst = load, tally[1] = e.second.first, tally[2] = e.second.second;
      if (e.second.first > e.second.second) tally[3] = 1;
    }
  }
  PMPI_Bcast(tally, 4, MPI_INT, 0, comm);
  return MachineLoad{tally[0], tally[1], tally[2], tally[3] != 0};
}

}  // namespace hiercoll
