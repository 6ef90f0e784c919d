// Communicator lifetime for hiercoll/comm_registry.h: every constructor of
// communicators clears the handle it returns (MPI may hand out the address
// of a freed one again); MPI_Comm_free is in interpose_free.cc.
#include <mpi.h>

#include "runtime/comm_registry.h"
#include "runtime/comm_state.h"

namespace {

int created(int rc, MPI_Comm* c) {
  if (rc == MPI_SUCCESS && c) hiercoll::note_comm_created(*c);
  return rc;
}

}  // namespace

extern "C" {

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* out) { return created(PMPI_Comm_dup(comm, out), out); }
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* out) {
  const int rc = created(PMPI_Comm_dup_with_info(comm, info, out), out);
  if (rc == MPI_SUCCESS) hiercoll::apply_dup_info(*out, info);
  return rc;
}
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* out, MPI_Request* req) {
  return created(PMPI_Comm_idup(comm, out, req), out);
}
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* out) {
  return created(PMPI_Comm_split(comm, color, key, out), out);
}
int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* out) {
  return created(PMPI_Comm_split_type(comm, type, key, info, out), out);
}
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* out) {
  return created(PMPI_Comm_create(comm, group, out), out);
}
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* out) {
  return created(PMPI_Comm_create_group(comm, group, tag, out), out);
}
int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader, int tag, MPI_Comm* out) {
  return created(PMPI_Intercomm_create(local, local_leader, peer, remote_leader, tag, out), out);
}
int MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm* out) {
  return created(PMPI_Intercomm_merge(inter, high, out), out);
}
int MPI_Cart_create(MPI_Comm old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* out) {
  return created(PMPI_Cart_create(old, ndims, dims, periods, reorder, out), out);
}
int MPI_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm* out) {
  return created(PMPI_Cart_sub(comm, remain, out), out);
}
int MPI_Graph_create(MPI_Comm old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm* out) {
  return created(PMPI_Graph_create(old, nnodes, index, edges, reorder, out), out);
}
int MPI_Dist_graph_create(MPI_Comm old, int n, const int sources[], const int degrees[], const int dests[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm* out) {
  return created(PMPI_Dist_graph_create(old, n, sources, degrees, dests, weights, info, reorder, out), out);
}
int MPI_Dist_graph_create_adjacent(MPI_Comm old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int dests[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* out) {
  return created(PMPI_Dist_graph_create_adjacent(old, indegree, sources, sourceweights, outdegree, dests, destweights,
                                                 info, reorder, out),
                 out);
}
int MPI_Comm_accept(const char* port, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* out) {
  return created(PMPI_Comm_accept(port, info, root, comm, out), out);
}
int MPI_Comm_connect(const char* port, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* out) {
  return created(PMPI_Comm_connect(port, info, root, comm, out), out);
}
int MPI_Comm_join(int fd, MPI_Comm* out) { return created(PMPI_Comm_join(fd, out), out); }
int MPI_Comm_spawn(const char* command, char* argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm* out, int errcodes[]) {
  return created(PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, out, errcodes), out);
}
int MPI_Comm_spawn_multiple(int count, char* commands[], char** argvs[], const int maxprocs[], const MPI_Info infos[],
                            int root, MPI_Comm comm, MPI_Comm* out, int errcodes[]) {
  return created(PMPI_Comm_spawn_multiple(count, commands, argvs, maxprocs, infos, root, comm, out, errcodes), out);
}
int MPI_Comm_get_parent(MPI_Comm* parent) { return created(PMPI_Comm_get_parent(parent), parent); }

}  // extern "C"
