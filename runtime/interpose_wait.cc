// MPI's completion functions with progress for hiercoll's nonblocking
// collectives (runtime/requests.h): a Test first advances the started
// schedules; a Wait alternates advancing them and testing the caller's
// requests, because MPI's own Wait would never see a generalized request
// complete that only hiercoll can complete.  With no schedule active they
// are MPI's, at the cost of one atomic load.
#include <mpi.h>

#include "runtime/requests.h"

namespace {

using hiercoll::progress_requests;
using hiercoll::requests_active;

// A Wait as a loop of Tests: `test(&flag)` is the MPI Test function on the
// caller's arguments, `wait()` MPI's Wait, used once no schedule is left
// to advance.
template <typename Test, typename Wait>
int wait_with_progress(Test test, Wait wait) {
  while (requests_active()) {
    progress_requests();
    int flag = 0;
    const int rc = test(&flag);
    if (rc != MPI_SUCCESS || flag) return rc;
  }
  return wait();
}

void progress() {
  if (requests_active()) progress_requests();
}

}  // namespace

extern "C" {

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  progress();
  return PMPI_Test(request, flag, status);
}
int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  progress();
  return PMPI_Testall(count, requests, flag, statuses);
}
int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  progress();
  return PMPI_Testany(count, requests, index, flag, status);
}
int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  progress();
  return PMPI_Testsome(incount, requests, outcount, indices, statuses);
}
int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  progress();
  return PMPI_Request_get_status(request, flag, status);
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  // Waiting for the one running schedule: block in MPI like a blocking call.
  if (request && requests_active() && hiercoll::finish_only_request(*request)) return PMPI_Wait(request, status);
  return wait_with_progress([&](int* flag) { return PMPI_Test(request, flag, status); },
                            [&] { return PMPI_Wait(request, status); });
}
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return wait_with_progress([&](int* flag) { return PMPI_Testall(count, requests, flag, statuses); },
                            [&] { return PMPI_Waitall(count, requests, statuses); });
}
int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return wait_with_progress([&](int* flag) { return PMPI_Testany(count, requests, index, flag, status); },
                            [&] { return PMPI_Waitany(count, requests, index, status); });
}
int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return wait_with_progress(
      [&](int* flag) {
        const int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
        *flag = *outcount != 0;  // some completed, or MPI_UNDEFINED: none active
        return rc;
      },
      [&] { return PMPI_Waitsome(incount, requests, outcount, indices, statuses); });
}

}  // extern "C"
