#include "runtime/progress_thread.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "runtime/requests.h"
#include "runtime/settings.h"

namespace hiercoll {

namespace {

std::thread g_thread;
std::atomic<bool> g_running{false};
std::atomic<bool> g_stop{false};
std::mutex g_idle_mu;
std::condition_variable g_idle_cv;

// Polls while schedules are active (yielding between polls: on a busy core
// the application's computation runs meanwhile), sleeps while none are.
void progress_loop() {
  while (!g_stop.load()) {
    if (requests_active()) {
      progress_requests();
      std::this_thread::yield();
      continue;
    }
    std::unique_lock<std::mutex> lock(g_idle_mu);
    g_idle_cv.wait_for(lock, std::chrono::milliseconds(10), [] { return g_stop.load() || requests_active(); });
  }
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

void launch() {
  g_stop.store(false);
  g_thread = std::thread(progress_loop);
  g_running.store(true);
}

}  // namespace

void start_progress_thread(int provided) {
  if (!env_settings().progress_thread || g_running.load()) return;
  if (provided != MPI_THREAD_MULTIPLE) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
      std::fprintf(stderr,
                   "hiercoll: HIERCOLL_PROGRESS_THREAD=1 needs MPI_Init_thread with MPI_THREAD_MULTIPLE (this "
                   "process has %s): no progress thread, nonblocking collectives advance inside MPI calls only\n",
                   thread_level_name(provided));
    return;
  }
  launch();
}

void stop_progress_thread() {
  if (!g_running.load()) return;
  g_stop.store(true);
  wake_progress_thread();
  g_thread.join();
  g_running.store(false);
}

void wake_progress_thread() {
  if (!g_running.load(std::memory_order_relaxed)) return;
  // Taking the mutex orders this wake-up after a check of requests_active()
  // the thread made just before it went to wait; without it the wake-up
  // could fall between the two and the thread would sleep its 10 ms out.
  { std::lock_guard<std::mutex> lock(g_idle_mu); }
  g_idle_cv.notify_one();
}

bool progress_thread_running() { return g_running.load(); }

bool set_progress_thread(bool on) {
  int provided = MPI_THREAD_SINGLE;
  PMPI_Query_thread(&provided);
  if (on && provided != MPI_THREAD_MULTIPLE) return false;
  if (on && !g_running.load()) launch();
  if (!on) stop_progress_thread();
  return true;
}

}  // namespace hiercoll
