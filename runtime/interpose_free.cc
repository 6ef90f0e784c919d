// The frees of handles a started nonblocking call may still use
// (runtime/handle_pins.h): a pinned handle is freed when its last call
// finishes; the program's handle is the null handle at once either way.
#include <mpi.h>

#include "runtime/comm_registry.h"
#include "runtime/handle_pins.h"

extern "C" {

int MPI_Type_free(MPI_Datatype* type) {
  if (type && *type != MPI_DATATYPE_NULL && hiercoll::defer_type_free(*type)) {
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
  }
  return PMPI_Type_free(type);
}

int MPI_Op_free(MPI_Op* op) {
  if (op && *op != MPI_OP_NULL && hiercoll::defer_op_free(*op)) {
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
  }
  return PMPI_Op_free(op);
}

int MPI_Comm_free(MPI_Comm* comm) {
  const MPI_Comm old = comm ? *comm : MPI_COMM_NULL;
  if (old != MPI_COMM_NULL && hiercoll::defer_comm_free(old)) {
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  const int rc = PMPI_Comm_free(comm);
  if (rc == MPI_SUCCESS) hiercoll::note_comm_freed(old);
  return rc;
}

}  // extern "C"
