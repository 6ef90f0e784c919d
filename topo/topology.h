// What the machine looks like from one communicator: which node every rank
// is on, whether each node's ranks are consecutive, and a socket/NUMA level
// inside the node from hwloc, plus a private duplicate of the communicator
// for hiercoll's own messages.  Found once per communicator and cached on it
// (MPI attribute): a duplicate shares the layout, a communicator whose ranks
// are all in MPI_COMM_WORLD reads its layout off world's (no communication),
// freeing the communicator releases it all.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace hiercoll {

// Where ranks are, as data (no communicators): pure and shareable.
struct Layout {
  int size = 0;
  int num_nodes = 0;
  std::vector<int> node_of;                // node index of every rank; nodes ordered by lowest rank
  std::vector<std::vector<int>> node_ranks;  // ranks of each node, ascending
  std::vector<int> local_rank;             // index of every rank within its node
  bool consecutive = true;                 // every node's ranks form one contiguous range
  bool uniform = true;                     // every node has the same number of ranks
  // Socket level: the package (or NUMA domain) of every rank within its
  // node, numbered 0.. per node; all 0 where hwloc sees one.
  std::vector<int> socket_of;
  int max_sockets_per_node = 1;
  std::string socket_level;  // "package", "numa" or "none"

  int node_size(int node) const { return static_cast<int>(node_ranks[node].size()); }
  int master_of_node(int node) const { return node_ranks[node][0]; }
  bool is_master(int rank) const { return local_rank[rank] == 0; }
  std::string describe() const;  // one line summary
};

// Builds a layout from per-rank node keys (any value equal on exactly the
// ranks of one node) and socket indices.  Used by topo and by tests that
// synthesize machines far larger than this one.
Layout make_layout(const std::vector<int>& node_key, const std::vector<int>& socket, const std::string& level);

struct Topology {
  std::shared_ptr<const Layout> layout;
  int rank = 0;
  MPI_Comm comm = MPI_COMM_NULL;  // private duplicate of the user's communicator
  int my_node() const { return layout->node_of[rank]; }
};

// The topology of `comm`, computed on first use (collective then: every rank
// must call it in the same order, as for any collective) and cached.
// Returns an MPI error code; *out stays valid until comm is freed.
int get_topology(MPI_Comm comm, const Topology** out);

// Computes MPI_COMM_WORLD's topology; called by every process right after
// MPI_Init (collective over world).  From then on the layout of any
// communicator within world is derived from it locally.
int init_world_topology();

// How many topologies are alive (for tests of the cache's lifetime).
int live_topologies();
// How many times a layout was computed (not taken from the cache).
long layouts_computed();

}  // namespace hiercoll
