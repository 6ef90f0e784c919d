// Collectives past INT_MAX, on 2 ranks of one node (each case holds a few
// GiB, so the layout is one and the cases are few): a bcast of more than
// INT_MAX bytes, and an allgather and a gather whose result holds more than
// INT_MAX elements, sent as messages of more than INT_MAX elements where
// the algorithm forwards several blocks at once (the executor sends those
// in pieces).  Results are checked byte by byte against a closed form.
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/hiercoll.h"
#include "runtime/stats.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

// The byte at position i of rank r's data.
unsigned char pattern(int64_t i, int r) { return static_cast<unsigned char>((i * 131 + (i >> 20) + 7 * r) & 0xff); }

void fill(unsigned char* p, int64_t n, int64_t first, int r) {
  for (int64_t i = 0; i < n; ++i) p[i] = pattern(first + i, r);
}

// Position of the first byte that differs from the pattern, or -1.
int64_t first_wrong(const unsigned char* p, int64_t n, int64_t first, int r) {
  for (int64_t i = 0; i < n; ++i)
    if (p[i] != pattern(first + i, r)) return i;
  return -1;
}

// World with `key` forcing `algorithm` (null: the default selection).
MPI_Comm comm_forcing(const char* key, const char* algorithm) {
  if (!algorithm) return world_with_hints({});
  return world_with_hints({{key, algorithm}});
}

using LargeCount = RankedMpiTest;

// 2^29 + 1 elements of 4 bytes: 2 GiB + 4 bytes, from the last rank.
TEST_F(LargeCount, BcastPastIntMaxBytes) {
  MPI_Datatype four;
  MPI_Type_contiguous(4, MPI_CHAR, &four);
  MPI_Type_commit(&four);
  const int count = (1 << 29) + 1;
  const int64_t bytes = int64_t(count) * 4;
  ASSERT_GT(bytes, INT_MAX);
  const int root = size_ - 1;
  std::unique_ptr<unsigned char[]> buf(new unsigned char[bytes]);
  for (const char* algorithm : {static_cast<const char*>(nullptr), "binomial", "scatter_ring"}) {
    if (rank_ == root) fill(buf.get(), bytes, 0, root);
    else std::fill_n(buf.get(), bytes, 0);
    MPI_Comm c = comm_forcing("hiercoll_bcast_algorithm", algorithm);
    EXPECT_EQ(hiercoll_bcast(buf.get(), count, four, root, c), MPI_SUCCESS);
    const std::string used = last_algorithm();
    MPI_Comm_free(&c);
    EXPECT_EQ(used, algorithm ? algorithm : used);
    EXPECT_EQ(first_wrong(buf.get(), bytes, 0, root), -1) << (algorithm ? algorithm : "default");
  }
  MPI_Type_free(&four);
}

// Every rank's block is 2^30 + 1 bytes, so the result (2 GiB + 2 bytes on
// 2 ranks) has more than INT_MAX elements; gather_bcast broadcasts it all
// at once.
TEST_F(LargeCount, AllgatherPastIntMaxElementsInPlace) {
  const int block = (1 << 30) + 1;
  const int64_t total = int64_t(block) * size_;
  ASSERT_GT(total, INT_MAX);
  std::unique_ptr<unsigned char[]> buf(new unsigned char[total]);
  for (const char* algorithm : {static_cast<const char*>(nullptr), "gather_bcast", "ring"}) {
    std::fill_n(buf.get(), total, 0);
    fill(buf.get() + int64_t(block) * rank_, block, 0, rank_);
    MPI_Comm c = comm_forcing("hiercoll_allgather_algorithm", algorithm);
    EXPECT_EQ(hiercoll_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf.get(), block, MPI_CHAR, c), MPI_SUCCESS);
    const std::string used = last_algorithm();
    MPI_Comm_free(&c);
    EXPECT_EQ(used, algorithm ? algorithm : used);
    for (int r = 0; r < size_; ++r) {
      EXPECT_EQ(first_wrong(buf.get() + int64_t(block) * r, block, 0, r), -1)
          << "block " << r << ", " << (algorithm ? algorithm : "default");
    }
  }
}

// The root receives more than INT_MAX elements (in place); the others send
// 2^30 + 1 bytes each.
TEST_F(LargeCount, GatherPastIntMaxElementsAtTheRoot) {
  const int block = (1 << 30) + 1;
  const int root = 0;
  const int64_t total = int64_t(block) * size_;
  std::unique_ptr<unsigned char[]> buf(new unsigned char[rank_ == root ? total : block]);
  unsigned char* mine = rank_ == root ? buf.get() + int64_t(block) * rank_ : buf.get();
  fill(mine, block, 0, rank_);
  const int rc = rank_ == root ? hiercoll_gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf.get(), block, MPI_CHAR,
                                                 root, MPI_COMM_WORLD)
                               : hiercoll_gather(buf.get(), block, MPI_CHAR, nullptr, 0, MPI_CHAR, root,
                                                 MPI_COMM_WORLD);
  EXPECT_EQ(rc, MPI_SUCCESS);
  if (rank_ != root) return;
  for (int r = 0; r < size_; ++r) {
    EXPECT_EQ(first_wrong(buf.get() + int64_t(block) * r, block, 0, r), -1) << "block " << r;
  }
}

}  // namespace
}  // namespace hiercoll::testing
