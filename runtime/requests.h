// Nonblocking collectives: a started schedule behind an MPI request.
//
// The application gets an MPI generalized request (MPI_Grequest_start),
// completed with MPI_Grequest_complete when the schedule has finished, so
// it mixes with any other request in MPI's Test/Wait functions and
// MPI_Request_free.  Schedules advance in progress_requests(): hiercoll's
// MPI_Test*/Wait* (interpose_wait.cc), its blocking collectives while they
// wait, its nonblocking calls, and the progress thread (progress_thread.h).
#pragma once

#include <mpi.h>

#include <atomic>
#include <memory>

#include "executors/mpi_executor.h"
#include "runtime/call.h"
#include "runtime/handle_pins.h"
#include "runtime/plan.h"
#include "schedule/schedule.h"

namespace hiercoll {

// A nonblocking call from its start until the application has released its
// request: the plan (buffers, packed bcast message), the schedule (kept: the
// communicator's cache may drop it) and the run (from a pool: a run keeps
// its scratch and lists, so a repeated call allocates and faults in no new
// memory, like the blocking path's thread-local run).
struct PendingCall {
  Plan plan;
  std::shared_ptr<const Schedule> schedule;
  std::unique_ptr<ScheduleRun> run;
  MPI_Op op = MPI_OP_NULL;
  MPI_Comm comm = MPI_COMM_NULL;  // the user's
  // The user's datatypes, operation and communicator, pinned until the
  // schedule has finished: the program may free them meanwhile.
  HandlePins pins;
  MPI_Request request = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;  // the call's outcome, in its status
  // Owners: the progress engine until the schedule has finished, MPI until
  // the application's request is freed (free_fn); the last one deletes.
  std::atomic<int> owners{2};
  // Persistent collectives (runtime/persistent.h): called when a start's
  // schedule has finished (rc set), in place of completing a generalized
  // request; the call, its plan and pins stay for the next start.
  void (*on_finish)(PendingCall* call) = nullptr;
};

// Starts `call`'s schedule (call->schedule, call->plan set) on the private
// communicator `comm` and hands its request to *request.  Returns an MPI
// error code (then no request was made).
int start_request(std::unique_ptr<PendingCall> call, const Call& c, MPI_Comm comm, int tag_base,
                  MPI_Request* request);
// Starts a persistent call's schedule again (call->on_finish set; the
// plan, schedule and pins kept from its init): the engine advances it like
// a nonblocking call's and calls on_finish when it has finished (at once
// when it has nothing to wait for).  MPI error code (then nothing runs).
int start_persistent_run(PendingCall* call, MPI_Comm comm, int tag_base);
// A request already complete (a call that moves no data).
int completed_request(MPI_Request* request);

// Advances every started schedule a step without blocking: completes the
// messages that arrived, posts what became ready, completes the requests
// of finished schedules.  Another thread already doing it: returns at once.
void progress_requests();
// Whether any started schedule has not finished (cheap: one atomic load).
bool requests_active();
// MPI_Wait on `request`: when it is the only started schedule and no
// progress thread runs, runs it to its end blocking in MPI (as a blocking
// call does, instead of polling) and returns true; else false.
bool finish_only_request(MPI_Request request);
// PendingCalls alive (tests: nothing leaks).
int live_requests();

// A blocking call's schedule, run to its end on this thread; while it
// waits, the started nonblocking ones advance too.
int run_blocking(const Schedule& s, const Buffers& bufs, MPI_Op op, MPI_Comm comm, int tag_base);

}  // namespace hiercoll
