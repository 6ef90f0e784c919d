// Persistent collectives (MPI-4.0 §6.12; Open MPI 4.1's MPIX_<op>_init):
// the call is validated, planned, decided and its schedule built once, at
// init, on every rank alike; each MPI_Start / MPI_Startall only runs that
// schedule again on the buffers' current contents.
//
// The application's request is a persistent point-to-point request of
// Open MPI's own: a zero-byte receive on a private duplicate of
// MPI_COMM_SELF with a tag of the call's own.  MPI_Start starts it (and
// the schedule); when the schedule has finished, hiercoll sends the
// matching zero-byte message to itself, so MPI's Wait and Test functions
// complete the request as any persistent request: it becomes inactive,
// keeps its handle, and mixes with other requests in every completion
// function and in MPI_Startall.  Calls the library hands to MPI (mode off,
// intercommunicators, a tuning file's native method) are Open MPI's
// PMPIX_<op>_init requests, known here only to count their starts.
#pragma once

#include <mpi.h>

#include "runtime/call.h"
#include "runtime/comm_state.h"
#include "runtime/settings.h"

namespace hiercoll {

// Makes call c's persistent request (*request).  -1: the call goes to MPI
// (the caller then makes MPI's own and registers it: note_native_persistent);
// else an MPI error code (raised through the communicator's handler).
int init_persistent(const Call& c, MPI_Request* request);
// An MPI-made persistent collective request, counted as native per start;
// the call's datatypes, operation and communicator stay until it is freed.
void note_native_persistent(MPI_Request request, const Call& c);

// The interposed MPI_Start, MPI_Startall and MPI_Request_free: hiercoll's
// persistent requests start their schedules (starting an active one is
// MPI_ERR_REQUEST, through its communicator's handler, and starts
// nothing); every other request goes to MPI as it is.
int start_requests(int count, MPI_Request requests[]);
int free_request(MPI_Request* request);

// Persistent requests of hiercoll's alive (tests: none left).
int live_persistent();

// Defined in run.cc, shared with its path: whether a call moves no data on
// any rank.
bool moves_nothing(const Call& c, int rank, int size);

}  // namespace hiercoll
