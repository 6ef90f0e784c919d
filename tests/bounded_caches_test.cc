// The caches a long-running program fills are bounded:
// a communicator's schedule cache, and the registry of freed handles.
// bench/hiercoll_memory measures the resident memory itself.  Also what
// saves a repeated call work: the cache's last entry, the lent arrays.
#include <gtest/gtest.h>

#include <cstdint>

#include "runtime/comm_registry.h"
#include "runtime/comm_state.h"
#include "runtime/plan.h"

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

// The cache answers a repeated call from its last entry first: whichever
// key comes, the value returned is that key's, also right after the cache
// was emptied at its bound.
TEST(BoundedCaches, ScheduleCacheReturnsEachKeysOwnSchedule) {
  ScheduleCache cache;
  auto schedule_for = [&](int64_t count) {
    CollArgs args;
    args.count = count;
    return cache.get(ScheduleKeyRef{nullptr, args}, [&] {
      Schedule s;
      s.tmp_units = count;  // marks whose schedule it is
      return s;
    });
  };
  for (int64_t count : {1, 1, 2, 1, 2, 2, 3, 1})
    EXPECT_EQ(schedule_for(count)->tmp_units, count);
  for (int64_t count = 0; count < int64_t(ScheduleCache::kMaxEntries) + 3; ++count) {
    EXPECT_EQ(schedule_for(count)->tmp_units, count);
    EXPECT_EQ(schedule_for(count)->tmp_units, count);
    if (count > 0) {
      EXPECT_EQ(schedule_for(count - 1)->tmp_units, count - 1);
    }
  }
}

// A blocking call's plan borrows its thread's count arrays: emptied when
// lent, their storage kept from one call to the next; a plan made while
// they are lent keeps its own.
TEST(LentArrays, KeepStorageAcrossCallsAndLendOnce) {
  Call alltoallv{};  // a call whose plan fills count arrays on every rank
  alltoallv.op = Op::kAlltoallv;
  const int64_t* storage = nullptr;
  {
    CollArgs args;
    const LentArrays lent(&args, alltoallv, 0);
    EXPECT_TRUE(args.counts.empty());
    args.counts.assign(64, 7);
    storage = args.counts.data();
  }
  CollArgs args;
  args.counts = {1, 2, 3};  // what a fresh plan would not have: must be emptied
  {
    const LentArrays lent(&args, alltoallv, 0);
    EXPECT_TRUE(args.counts.empty());
    EXPECT_GE(args.counts.capacity(), 64u);
    args.counts.assign(8, 1);
    EXPECT_EQ(args.counts.data(), storage);
    CollArgs nested;
    nested.displs = {4, 5};
    const LentArrays again(&nested, alltoallv, 0);  // the arrays are out: nothing lent
    EXPECT_EQ(nested.displs, (std::vector<int64_t>{4, 5}));
    EXPECT_EQ(args.counts.data(), storage);
  }
  const LentArrays none(nullptr, alltoallv, 0);  // a nonblocking call's plan: nothing lent
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
