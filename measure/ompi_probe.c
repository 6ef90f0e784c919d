/* See ompi_probe.h. Compiled as C: Open MPI's internal headers are C. */
#define _GNU_SOURCE 1
#include "measure/ompi_probe.h"

#include <string.h>

#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<ompi/communicator/communicator.h>) && __has_include(<ompi_config.h>)
#define HCB_HAVE_OMPI_INTERNALS 1
#endif
#endif

#ifdef HCB_HAVE_OMPI_INTERNALS
#include <dlfcn.h>

#include <ompi_config.h>
#include <ompi/communicator/communicator.h>
#include <ompi/mca/coll/coll.h>

static void* coll_entry(const mca_coll_base_comm_coll_t* c, const char* op) {
  if (!strcmp(op, "bcast")) return (void*)c->coll_bcast;
  if (!strcmp(op, "reduce")) return (void*)c->coll_reduce;
  if (!strcmp(op, "allreduce")) return (void*)c->coll_allreduce;
  if (!strcmp(op, "allgather")) return (void*)c->coll_allgather;
  if (!strcmp(op, "alltoall")) return (void*)c->coll_alltoall;
  if (!strcmp(op, "reduce_scatter_block")) return (void*)c->coll_reduce_scatter_block;
  if (!strcmp(op, "scan")) return (void*)c->coll_scan;
  if (!strcmp(op, "exscan")) return (void*)c->coll_exscan;
  if (!strcmp(op, "barrier")) return (void*)c->coll_barrier;
  if (!strcmp(op, "gather")) return (void*)c->coll_gather;
  if (!strcmp(op, "scatter")) return (void*)c->coll_scatter;
  return NULL;
}

const char* hcb_ompi_coll_function(MPI_Comm comm, const char* op) {
  if (comm == MPI_COMM_NULL) return NULL;
  const ompi_communicator_t* c = (const ompi_communicator_t*)comm;
  if (c->c_coll == NULL) return NULL;
  void* f = coll_entry(c->c_coll, op);
  Dl_info info;
  if (f == NULL || !dladdr(f, &info) || info.dli_sname == NULL) return NULL;
  return info.dli_sname;
}

#else

const char* hcb_ompi_coll_function(MPI_Comm comm, const char* op) {
  (void)comm;
  (void)op;
  return NULL;
}

#endif
