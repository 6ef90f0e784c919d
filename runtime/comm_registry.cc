#include "runtime/comm_registry.h"

#include <atomic>
#include <mutex>
#include <unordered_set>

namespace hiercoll {

namespace {
std::mutex g_mu;
std::unordered_set<MPI_Comm> g_freed;
std::atomic<bool> g_any{false};  // keeps the common case lock-free
}  // namespace

void note_comm_freed(MPI_Comm comm) {
  std::lock_guard<std::mutex> l(g_mu);
  g_freed.insert(comm);
  g_any = true;
}

void note_comm_created(MPI_Comm comm) {
  if (!g_any || comm == MPI_COMM_NULL) return;
  std::lock_guard<std::mutex> l(g_mu);
  g_freed.erase(comm);
  g_any = !g_freed.empty();
}

bool is_freed_comm(MPI_Comm comm) {
  if (!g_any) return false;
  std::lock_guard<std::mutex> l(g_mu);
  return g_freed.count(comm) != 0;
}

}  // namespace hiercoll
