#include "measure/machine.h"


#include <algorithm>
#include <cstdio>
#include <cstring>

#include "topo/machines.h"

namespace hcbench {

namespace {

// Open MPI's mpi_yield_when_idle through the MPI tool interface.
std::string read_yield_when_idle() {
  // Open MPI 4.1's MPI_T_init_thread overwrites the MPI process's thread
  // level with the one it is given (MPI_Query_thread then answers it, and
  // hiercoll refuses its progress thread): ask for the level the process has.
  int level = MPI_THREAD_SINGLE, provided;
  PMPI_Query_thread(&level);
  if (MPI_T_init_thread(level, &provided) != MPI_SUCCESS) return "?";
  std::string result = "?";
  int index = -1;
  if (MPI_T_cvar_get_index("mpi_yield_when_idle", &index) == MPI_SUCCESS && index >= 0) {
    MPI_T_cvar_handle handle;
    int count = 0;
    if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) == MPI_SUCCESS) {
      long long buf[4] = {0, 0, 0, 0};
      if (count == 1 && MPI_T_cvar_read(handle, buf) == MPI_SUCCESS) {
        int v;
        std::memcpy(&v, buf, sizeof v);  // booleans are int-sized cvars in Open MPI
        result = v ? "1" : "0";
      }
      MPI_T_cvar_handle_free(&handle);
    }
  }
  MPI_T_finalize();
  return result;
}

}  // namespace

std::vector<int> Machine::ranks_of_node(int n) const {
  std::vector<int> r;
  for (size_t i = 0; i < node_of.size(); ++i)
    if (node_of[i] == n) r.push_back(static_cast<int>(i));
  return r;
}

std::string Machine::header() const {
  char buf[512];
  const double per_core = static_cast<double>(max_ranks_per_machine) / cores_per_machine;
  std::string per_node = layout.ppn_string();
  per_node += per_node.find('+') == std::string::npos ? " per node" : " ranks per node";
  std::snprintf(buf, sizeof buf,
                "%d ranks on %d node%s (%s, %s) share %d core%s of %d physical machine%s "
                "(%.1f ranks per core%s; mpi_yield_when_idle=%s)",
                layout.ranks, layout.nodes, layout.nodes == 1 ? "" : "s", per_node.c_str(),
                layout.consecutive ? "by slot" : "not by slot", cores_per_machine * machines,
                cores_per_machine * machines == 1 ? "" : "s", machines, machines == 1 ? "" : "s", per_core,
                oversubscribed ? ", OVERSUBSCRIBED" : "", yield_when_idle.c_str());
  return buf;
}

std::string Machine::short_context() const {
  char buf[256];
  if (layout.ppn_string().find('+') == std::string::npos)
    std::snprintf(buf, sizeof buf, "%d nodes x %s ranks (%d ranks on %d cores)", layout.nodes,
                  layout.ppn_string().c_str(), layout.ranks, cores_per_machine * machines);
  else
    std::snprintf(buf, sizeof buf, "ranks per node %s (%d ranks on %d cores)", layout.ppn_string().c_str(),
                  layout.ranks, cores_per_machine * machines);
  return buf;
}

namespace {

// Nodes: shared-memory domains, numbered by their lowest rank; whether
// every node's ranks are consecutive in order.  Returns each node's
// lowest rank.
std::vector<int> find_nodes(MPI_Comm comm, Machine* m) {
  int rank, size;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  MPI_Comm node;
  PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int leader = rank;
  PMPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, node);
  PMPI_Comm_free(&node);
  std::vector<int> leaders(size);
  PMPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm);
  std::vector<int> sorted = leaders;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  m->layout.nodes = static_cast<int>(sorted.size());
  m->layout.ppn.assign(sorted.size(), 0);
  m->node_of.resize(size);
  for (int r = 0; r < size; ++r) {
    m->node_of[r] = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), leaders[r]) - sorted.begin());
    ++m->layout.ppn[m->node_of[r]];
  }
  m->layout.consecutive = true;
  for (int r = 1; r < size; ++r)
    if (m->node_of[r] != m->node_of[r - 1] && m->node_of[r] != m->node_of[r - 1] + 1) m->layout.consecutive = false;
  for (int n = 0; n < m->layout.nodes; ++n) {
    const std::vector<int> rs = m->ranks_of_node(n);
    if (rs.back() - rs.front() + 1 != static_cast<int>(rs.size())) m->layout.consecutive = false;
  }
  return sorted;
}

// Each node's name: its lowest rank's processor name.
void name_nodes(MPI_Comm comm, const std::vector<int>& lowest, Machine* m) {
  int size;
  PMPI_Comm_size(comm, &size);
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> names(static_cast<size_t>(size) * MPI_MAX_PROCESSOR_NAME);
  PMPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm);
  for (int n = 0; n < m->layout.nodes; ++n)
    m->node_names.emplace_back(&names[static_cast<size_t>(lowest[n]) * MPI_MAX_PROCESSOR_NAME]);
}

// Physical machines (same boot id) and their cores; the most loaded one's
// figures, and whether any runs more ranks than it has cores.
void count_machines(MPI_Comm comm, Machine* m) {
  const hiercoll::MachineLoad load = hiercoll::machine_load(comm);
  m->machines = load.machines;
  m->max_ranks_per_machine = load.max_ranks_per_machine;
  m->cores_per_machine = load.cpus_per_machine;
  m->oversubscribed = load.oversubscribed;
}

// The first line of MPI_Get_library_version (up to a comma).
std::string mpi_library() {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int len = 0;
  MPI_Get_library_version(lib, &len);
  std::string s = lib;
  const size_t nl = s.find_first_of("\r\n,");
  if (nl != std::string::npos) s.resize(nl);
  return s;
}

}  // namespace

Machine discover_machine(MPI_Comm comm) {
  Machine m;
  PMPI_Comm_size(comm, &m.layout.ranks);
  const std::vector<int> lowest = find_nodes(comm, &m);
  name_nodes(comm, lowest, &m);
  count_machines(comm, &m);
  m.yield_when_idle = read_yield_when_idle();
  m.mpi_library = mpi_library();
  return m;
}

}  // namespace hcbench
