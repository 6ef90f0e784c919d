#include "runtime/comm_registry.h"

#include <atomic>
#include <list>
#include <mutex>
#include <unordered_map>

namespace hiercoll {

namespace {
// The most recently freed handles, oldest first, with an index by handle:
// bounded, so a program that creates and frees communicators for ever does
// not grow it (MPI usually hands the same addresses out again, which
// removes them; when it does not, the oldest are forgotten).
std::mutex g_mu;
std::list<MPI_Comm> g_order;
std::unordered_map<MPI_Comm, std::list<MPI_Comm>::iterator> g_freed;
std::atomic<bool> g_any{false};  // keeps the common case lock-free
}  // namespace

void note_comm_freed(MPI_Comm comm) {
  std::lock_guard<std::mutex> l(g_mu);
  auto it = g_freed.find(comm);
  if (it != g_freed.end()) g_order.erase(it->second);
  g_freed[comm] = g_order.insert(g_order.end(), comm);
  if (g_freed.size() > kMaxFreedComms) {
    g_freed.erase(g_order.front());
    g_order.pop_front();
  }
  g_any = true;
}

void note_comm_created(MPI_Comm comm) {
  if (!g_any || comm == MPI_COMM_NULL) return;
  std::lock_guard<std::mutex> l(g_mu);
  auto it = g_freed.find(comm);
  if (it == g_freed.end()) return;
  g_order.erase(it->second);
  g_freed.erase(it);
  g_any = !g_freed.empty();
}

bool is_freed_comm(MPI_Comm comm) {
  if (!g_any) return false;
  std::lock_guard<std::mutex> l(g_mu);
  return g_freed.count(comm) != 0;
}

size_t freed_comm_count() {
  std::lock_guard<std::mutex> l(g_mu);
  return g_freed.size();
}

}  // namespace hiercoll
