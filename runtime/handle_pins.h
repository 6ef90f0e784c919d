// Handles a started nonblocking call still uses.  MPI lets a program free
// an operation, a datatype or a communicator while operations started with
// it are pending (MPI-3.1 4.1.9, 5.9.5, 6.4.3): the handle stays valid for
// them.  Open MPI keeps its own objects alive for its own requests, but a
// schedule posts its later messages and reductions with the user's
// handles long after the call returned.  So a started call pins the
// handles it reads, and the interposed MPI_Op_free, MPI_Type_free and
// MPI_Comm_free of a pinned handle only mark it: the handle is freed when
// its last pin goes (the program's variable becomes the null handle at
// once, as MPI says).  Predefined handles are never pinned (MPI forbids
// freeing them, and MPI reports that).  Thread-safe.
#pragma once

#include <mpi.h>

#include <vector>

namespace hiercoll {

class HandlePins {
 public:
  HandlePins() = default;
  HandlePins(const HandlePins&) = delete;
  HandlePins& operator=(const HandlePins&) = delete;
  ~HandlePins() { release(); }

  // Each pins its handle once for this holder (null and predefined handles:
  // nothing).
  void pin_type(MPI_Datatype type);
  void pin_op(MPI_Op op);
  void pin_comm(MPI_Comm comm);
  // Lets go of every pin; a handle whose free was deferred and that no one
  // else pins is freed now.
  void release();

 private:
  std::vector<void*> handles_;
};

// The interposed frees: true when the handle is pinned and its free was
// deferred (the caller then sets the program's handle to null and
// succeeds); false: free it now.
bool defer_type_free(MPI_Datatype type);
bool defer_op_free(MPI_Op op);
bool defer_comm_free(MPI_Comm comm);

// Handles pinned now (tests: nothing stays pinned).
int pinned_handles();

}  // namespace hiercoll
