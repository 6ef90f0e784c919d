// One collective call as the library sees it, whatever API it came through.
#pragma once

#include <mpi.h>

#include "runtime/call_args.h"
#include "runtime/online_tuning.h"
#include "runtime/stats.h"
#include "schedule/coll_args.h"

namespace hiercoll {

struct Call : CallArgs {
  ApiOp api;
  Op op;
  const char* mpi_name;  // for messages: "MPI_Bcast"
};

// Checks the communicator; on bad input says why on stderr (once per kind)
// and returns the MPI error class (MPI_SUCCESS when fine).  *inter is set
// for intercommunicators, which the library hands to MPI.
int validate_comm(const Call& c, bool* inter);
// Checks the other arguments of a call on an intracommunicator, the same way.
int validate_args(const Call& c);

// Raises `code` through comm's error handler (MPI_COMM_WORLD's for
// MPI_COMM_NULL) and returns it (when the handler returns).
int raise_error(MPI_Comm comm, int code);

// Runs a call: validation, then MPI's own collective (`native`), or a flat
// or hierarchical schedule, as the settings and the call decide.  With a
// request (nonblocking calls) the schedule is started and *request is
// handed back (runtime/requests.h); `native` is then MPI's nonblocking
// collective, which sets *request itself.
template <typename Native>
int run_call(const Call& c, Native native, MPI_Request* request = nullptr);

// The non-template part of run_call: returns -1 when the call must go to MPI.
int run_call_internal(const Call& c, MPI_Request* request);

template <typename Native>
int run_call(const Call& c, Native native, MPI_Request* request) {
  int rc = run_call_internal(c, request);
  if (rc == -1) {
    count_call(c.api, Path::kNative);
    note_algorithm("native");
    rc = native();
  }
  end_online_try();  // the call was one of the model's tries: its time
  return rc;
}

}  // namespace hiercoll
