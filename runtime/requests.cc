#include "runtime/requests.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "runtime/progress_thread.h"

namespace hiercoll {

namespace {

// The started schedules not yet finished.  g_active_count mirrors the
// vector's size for the lock-free requests_active().
std::mutex g_mu;
std::vector<PendingCall*> g_active;
std::atomic<int> g_active_count{0};
std::atomic<int> g_live{0};
// Finished runs for reuse (g_mu), a few: their scratch is as large as the
// largest call's.
std::vector<std::unique_ptr<ScheduleRun>> g_spare_runs;
constexpr size_t kMaxSpareRuns = 8;

void release(PendingCall* call) {
  if (call->owners.fetch_sub(1) == 1) {
    delete call;
    g_live.fetch_sub(1);
  }
}

// MPI-3.1 §5.12: for a completed nonblocking collective only MPI_ERROR is
// meaningful; the rest is set as for an empty message.
void fill_status(MPI_Status* status, int rc) {
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = rc;
}

// Generalized request callbacks.  Open MPI 4.1 calls query_fn when the
// application's Test/Wait completes the request (not at
// MPI_Grequest_complete), and free_fn then, or at MPI_Grequest_complete for
// a request the application freed before it completed.
int query_call(void* extra, MPI_Status* status) {
  const int rc = static_cast<PendingCall*>(extra)->rc;
  fill_status(status, rc);
  return rc;
}
int free_call(void* extra) {
  release(static_cast<PendingCall*>(extra));
  return MPI_SUCCESS;
}
// MPI_Cancel of a collective's request is erroneous (MPI-3.1 §5.12); it
// has no effect.
int cancel_nothing(void*, int) { return MPI_SUCCESS; }
int query_done(void*, MPI_Status* status) {
  fill_status(status, MPI_SUCCESS);
  return MPI_SUCCESS;
}
int free_nothing(void*) { return MPI_SUCCESS; }

// The schedule has finished (or failed): its outcome goes to the status,
// the application's request completes, the engine lets go.
void finish(PendingCall* call, int rc) {
  if (g_spare_runs.size() < kMaxSpareRuns) g_spare_runs.push_back(std::move(call->run));
  if (rc == MPI_SUCCESS) rc = finish_plan(call->plan);
  call->rc = rc;
  if (call->on_finish) {  // persistent: the call stays for its next start
    call->run.reset();
    call->on_finish(call);
    return;
  }
  call->pins.release();
  PMPI_Grequest_complete(call->request);
  release(call);
}

// Advances the active schedules; the caller holds g_mu.
void progress_locked() {
  for (size_t i = 0; i < g_active.size();) {
    PendingCall* call = g_active[i];
    const int rc = call->run->progress(/*wait=*/false);
    if (rc == MPI_SUCCESS && !call->run->done()) {
      ++i;
      continue;
    }
    g_active[i] = g_active.back();
    g_active.pop_back();
    finish(call, rc);
    g_active_count.fetch_sub(1);
  }
}

// Every handle of the call's own that the schedule or finish_plan reads
// after the call returned.
void pin_handles(const Call& c, PendingCall* call) {
  for (const BufDesc& d : call->plan.bufs.buf) call->pins.pin_type(d.type);
  call->pins.pin_type(call->plan.message.type);
  for (const PackedBlocks::Block& b : call->plan.typed.unpacks) call->pins.pin_type(b.type);
  call->pins.pin_op(c.mpi_op);
  call->pins.pin_comm(c.comm);
}

}  // namespace

int start_request(std::unique_ptr<PendingCall> owned, const Call& c, MPI_Comm comm, int tag_base,
                  MPI_Request* request) {
  PendingCall* call = owned.release();
  g_live.fetch_add(1);
  call->op = c.mpi_op;
  call->comm = c.comm;
  pin_handles(c, call);
  int rc = PMPI_Grequest_start(query_call, free_call, cancel_nothing, call, &call->request);
  if (rc != MPI_SUCCESS) {
    delete call;
    g_live.fetch_sub(1);
    return rc;
  }
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_spare_runs.empty()) {
      call->run = std::make_unique<ScheduleRun>();
    } else {
      call->run = std::move(g_spare_runs.back());
      g_spare_runs.pop_back();
    }
    rc = call->run->start(*call->schedule, call->plan.bufs, call->op, comm, tag_base);
    if (rc != MPI_SUCCESS) {
      // Nothing stays posted; the call fails and its request goes.
      call->rc = rc;
      PMPI_Grequest_complete(call->request);
      MPI_Request r = call->request;  // free_fn deletes call
      release(call);
      PMPI_Request_free(&r);
      return rc;
    }
    *request = call->request;
    if (call->run->done()) {
      finish(call, MPI_SUCCESS);
    } else {
      g_active.push_back(call);
      g_active_count.fetch_add(1);
    }
    // Starting is also a chance for the earlier calls to advance.
    progress_locked();
  }
  wake_progress_thread();
  return MPI_SUCCESS;
}

int start_persistent_run(PendingCall* call, MPI_Comm comm, int tag_base) {
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_spare_runs.empty()) {
      call->run = std::make_unique<ScheduleRun>();
    } else {
      call->run = std::move(g_spare_runs.back());
      g_spare_runs.pop_back();
    }
    const int rc = call->run->start(*call->schedule, call->plan.bufs, call->op, comm, tag_base);
    if (rc != MPI_SUCCESS) {
      call->run.reset();
      return rc;
    }
    if (call->run->done()) {
      finish(call, MPI_SUCCESS);
    } else {
      g_active.push_back(call);
      g_active_count.fetch_add(1);
    }
    progress_locked();
  }
  wake_progress_thread();
  return MPI_SUCCESS;
}

int completed_request(MPI_Request* request) {
  const int rc = PMPI_Grequest_start(query_done, free_nothing, cancel_nothing, nullptr, request);
  return rc == MPI_SUCCESS ? PMPI_Grequest_complete(*request) : rc;
}

void progress_requests() {
  if (g_active_count.load(std::memory_order_relaxed) == 0) return;
  std::unique_lock<std::mutex> lock(g_mu, std::try_to_lock);
  if (lock.owns_lock()) progress_locked();
}

bool requests_active() { return g_active_count.load(std::memory_order_relaxed) != 0; }

bool finish_only_request(MPI_Request request) {
  if (g_active_count.load(std::memory_order_relaxed) != 1 || progress_thread_running()) return false;
  std::unique_lock<std::mutex> lock(g_mu, std::try_to_lock);
  if (!lock.owns_lock() || g_active.size() != 1 || g_active[0]->request != request) return false;
  PendingCall* call = g_active[0];
  int rc = MPI_SUCCESS;
  while (rc == MPI_SUCCESS && !call->run->done()) rc = call->run->progress(/*wait=*/true);
  g_active.clear();
  finish(call, rc);
  g_active_count.fetch_sub(1);
  return true;
}

int live_requests() { return g_live.load(); }

int run_blocking(const Schedule& s, const Buffers& bufs, MPI_Op op, MPI_Comm comm, int tag_base) {
  return execute_schedule(s, bufs, op, comm, tag_base, requests_active() ? progress_requests : nullptr);
}

}  // namespace hiercoll
