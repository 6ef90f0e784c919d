// HIERCOLL_PROGRESS_THREAD=1: a thread per process that advances the
// started nonblocking schedules in the background (runtime/requests.h), so
// they progress while the application computes.  It needs
// MPI_THREAD_MULTIPLE (it calls MPI beside the application's threads);
// without it the thread is refused, said once on stderr, and the schedules
// advance only inside MPI calls.
#pragma once

namespace hiercoll {

// After MPI_Init/MPI_Init_thread (`provided`: the thread level MPI gave).
void start_progress_thread(int provided);
// Before MPI_Finalize.
void stop_progress_thread();
// A schedule was started: the thread, if idle, resumes polling.
void wake_progress_thread();
// Whether the thread runs (tests, benchmark).
bool progress_thread_running();
// Starts or stops the thread at run time (the overlap benchmark measures
// both in one job); false when MPI does not provide MPI_THREAD_MULTIPLE.
bool set_progress_thread(bool on);

}  // namespace hiercoll
