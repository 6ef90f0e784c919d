#include "topo/topology.h"

#include <atomic>
#include <string>

#include "topo/sockets.h"

namespace hiercoll {

namespace {

// The cached object.  The private communicator is created lazily: a
// duplicate's copy callback shares the layout but cannot create
// communicators (that is collective), so it is made at the first use.
struct Cached : Topology {
  bool comms_ready = false;
  MPI_Group parent = MPI_GROUP_NULL;  // copied from a parent: its group, until first use
};

std::atomic<int> g_live{0};
std::atomic<long> g_computed{0};
std::atomic<bool> g_world_ready{false};
int g_keyval = MPI_KEYVAL_INVALID;

// The MPI objects a cached topology holds (none to free after MPI_Finalize).
void free_handles(Cached* t) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (t->comm != MPI_COMM_NULL) PMPI_Comm_free(&t->comm);
  if (t->parent != MPI_GROUP_NULL) PMPI_Group_free(&t->parent);
}

int copy_attr(MPI_Comm oldcomm, int, void*, void* in, void* out, int* flag) {
  const Cached* old = static_cast<const Cached*>(in);
  Cached* t = new Cached;
  t->layout = old->layout;
  t->rank = old->rank;
  PMPI_Comm_group(oldcomm, &t->parent);
  ++g_live;
  *static_cast<Cached**>(out) = t;
  *flag = 1;
  return MPI_SUCCESS;
}

int delete_attr(MPI_Comm, int, void* val, void*) {
  Cached* t = static_cast<Cached*>(val);
  free_handles(t);
  delete t;
  --g_live;
  return MPI_SUCCESS;
}

// The layout by asking every rank: its node (shared-memory split) and socket.
int compute_layout(Cached* t) {
  int size;
  PMPI_Comm_size(t->comm, &size);
  MPI_Comm node_comm;
  int rc = PMPI_Comm_split_type(t->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_comm);
  if (rc != MPI_SUCCESS) return rc;
  // Key of my node: its lowest rank; my index in the node: my rank there.
  int key = t->rank, local = 0;
  rc = PMPI_Allreduce(&t->rank, &key, 1, MPI_INT, MPI_MIN, node_comm);
  PMPI_Comm_rank(node_comm, &local);
  PMPI_Comm_free(&node_comm);
  if (rc != MPI_SUCCESS) return rc;
  std::string level;
  const int mine[2] = {key, detect_socket(local, &level)};
  std::vector<int> all(2 * size);
  rc = PMPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, t->comm);
  if (rc != MPI_SUCCESS) return rc;
  std::vector<int> keys(size), sockets(size);
  for (int r = 0; r < size; ++r) keys[r] = all[2 * r], sockets[r] = all[2 * r + 1];
  t->layout = std::make_shared<const Layout>(make_layout(keys, sockets, level));
  ++g_computed;
  return MPI_SUCCESS;
}

// The layout of comm read off MPI_COMM_WORLD's, without communication.  Only
// when world's was computed in every process at MPI_Init and all of comm's
// members are in this process's world: both then hold on every member or on
// none (a member from another world, after MPI_Comm_spawn, fails the test
// everywhere), so all ranks take the same path.
bool layout_from_world(MPI_Comm comm, Cached* t) {
  if (!g_world_ready) return false;
  void* val = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(MPI_COMM_WORLD, g_keyval, &val, &found);
  if (!found) return false;
  const Layout& world = *static_cast<const Cached*>(val)->layout;
  int size;
  PMPI_Comm_size(comm, &size);
  std::vector<int> ranks(size), world_ranks(size);
  for (int r = 0; r < size; ++r) ranks[r] = r;
  MPI_Group group, world_group;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  PMPI_Group_translate_ranks(group, size, ranks.data(), world_group, world_ranks.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world_group);
  std::vector<int> keys(size), sockets(size);
  for (int r = 0; r < size; ++r) {
    const int w = world_ranks[r];
    if (w == MPI_UNDEFINED) return false;
    keys[r] = world.node_of[w];
    sockets[r] = world.socket_of[w];
  }
  t->layout = std::make_shared<const Layout>(make_layout(keys, sockets, world.socket_level));
  ++g_computed;
  return true;
}

// Creates the private communicator; finds the layout too unless a duplicate
// inherited it.
int make_comms(MPI_Comm user, Cached* t) {
  int rc = PMPI_Comm_dup(user, &t->comm);
  if (rc == MPI_SUCCESS && !t->layout && !layout_from_world(user, t)) rc = compute_layout(t);
  if (rc == MPI_SUCCESS) t->comms_ready = true;
  return rc;
}

}  // namespace

int live_topologies() { return g_live.load(); }

int init_world_topology() {
  const Topology* t = nullptr;
  const int rc = get_topology(MPI_COMM_WORLD, &t);
  if (rc == MPI_SUCCESS) g_world_ready = true;
  return rc;
}
long layouts_computed() { return g_computed.load(); }

int get_topology(MPI_Comm comm, const Topology** out) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  // Created once, whichever thread comes first (MPI_THREAD_MULTIPLE).
  static const int keyval_rc = PMPI_Comm_create_keyval(copy_attr, delete_attr, &g_keyval, nullptr);
  if (keyval_rc != MPI_SUCCESS) return keyval_rc;
  void* val = nullptr;
  int found = 0;
  int rc = PMPI_Comm_get_attr(comm, g_keyval, &val, &found);
  if (rc != MPI_SUCCESS) return rc;
  Cached* t = found ? static_cast<Cached*>(val) : nullptr;
  if (t && t->comms_ready) {
    *out = t;
    return MPI_SUCCESS;
  }
  if (!t) {
    t = new Cached;
    ++g_live;
    PMPI_Comm_rank(comm, &t->rank);
    rc = make_comms(comm, t);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(comm, g_keyval, t);
    if (rc != MPI_SUCCESS) {
      delete_attr(comm, g_keyval, t, nullptr);
      return rc;
    }
  } else {
    // Copied from the parent: by MPI_Comm_dup, or -- Open MPI copies
    // attributes there too -- by MPI_Comm_create_group or MPI_Comm_create,
    // whose group may be another.  The parent's layout is shared only with
    // the same group (the same answer on every member, so where a layout
    // must be computed instead, all members compute it).
    MPI_Group mine;
    int same = MPI_UNEQUAL;
    PMPI_Comm_group(comm, &mine);
    if (t->parent != MPI_GROUP_NULL) PMPI_Group_compare(mine, t->parent, &same);
    PMPI_Group_free(&mine);
    if (t->parent != MPI_GROUP_NULL) PMPI_Group_free(&t->parent);
    if (same != MPI_IDENT) {
      t->layout.reset();
      PMPI_Comm_rank(comm, &t->rank);
    }
    rc = make_comms(comm, t);
    if (rc != MPI_SUCCESS) return rc;
  }
  *out = t;
  return MPI_SUCCESS;
}

}  // namespace hiercoll
