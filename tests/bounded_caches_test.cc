// The caches a long-running program fills are bounded (issue 18, item 7):
// a communicator's schedule cache, and the registry of freed handles.
// bench/hiercoll_memory measures the resident memory itself.
#include <gtest/gtest.h>

#include <cstdint>

#include "runtime/comm_registry.h"
#include "runtime/comm_state.h"

namespace hiercoll {
namespace {

MPI_Comm fake_handle(int64_t i) { return reinterpret_cast<MPI_Comm>(uintptr_t(16 * (i + 1))); }

TEST(BoundedCaches, ScheduleCacheHoldsAtMostItsBound) {
  ScheduleCache cache;
  int builds = 0;
  for (int count = 0; count < 5000; ++count) {
    CollArgs args;
    args.count = count;
    cache.get(ScheduleKeyRef{nullptr, args}, [&] { ++builds; return Schedule{}; });
    ASSERT_LE(cache.size(), ScheduleCache::kMaxEntries);
  }
  EXPECT_EQ(builds, 5000);
  // A repeated call shape is served from the cache.
  CollArgs last;
  last.count = 4999;
  cache.get(ScheduleKeyRef{nullptr, last}, [&] { ++builds; return Schedule{}; });
  EXPECT_EQ(builds, 5000);
  // The v-variants' blocks are part of the key: other counts, another
  // schedule; the same counts again, the cached one.
  last.counts = {1, 2, 3};
  cache.get(ScheduleKeyRef{nullptr, last}, [&] { ++builds; return Schedule{}; });
  last.counts = {1, 2, 4};
  cache.get(ScheduleKeyRef{nullptr, last}, [&] { ++builds; return Schedule{}; });
  last.counts = {1, 2, 3};
  cache.get(ScheduleKeyRef{nullptr, last}, [&] { ++builds; return Schedule{}; });
  EXPECT_EQ(builds, 5002);
}

TEST(BoundedCaches, FreedHandlesKeepTheMostRecentOnly) {
  const int64_t n = int64_t(kMaxFreedComms) + 1000;
  for (int64_t i = 0; i < n; ++i) note_comm_freed(fake_handle(i));
  EXPECT_EQ(freed_comm_count(), kMaxFreedComms);
  EXPECT_FALSE(is_freed_comm(fake_handle(0)));      // forgotten, oldest first
  EXPECT_TRUE(is_freed_comm(fake_handle(n - 1)));   // the newest kept
  EXPECT_TRUE(is_freed_comm(fake_handle(n - int64_t(kMaxFreedComms))));
  // Freeing a handle again makes it the newest; creating it removes it.
  note_comm_freed(fake_handle(n - int64_t(kMaxFreedComms)));
  note_comm_freed(fake_handle(n));
  EXPECT_TRUE(is_freed_comm(fake_handle(n - int64_t(kMaxFreedComms))));
  note_comm_created(fake_handle(n - 1));
  EXPECT_FALSE(is_freed_comm(fake_handle(n - 1)));
  EXPECT_EQ(freed_comm_count(), kMaxFreedComms - 1);
  for (int64_t i = 0; i <= n; ++i) note_comm_created(fake_handle(i));
  EXPECT_EQ(freed_comm_count(), 0u);
}

}  // namespace
}  // namespace hiercoll
