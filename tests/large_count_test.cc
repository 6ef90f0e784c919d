// Collectives past INT_MAX, on 2 ranks of one node (each case holds a few
// GiB, so the layout is one and the cases are few): a bcast of more than
// INT_MAX bytes, and an allgather and a gather whose result holds more than
// INT_MAX elements, sent as messages of more than INT_MAX elements where
// the algorithm forwards several blocks at once (the executor sends those
// in pieces), and an allreduce and a reduce of more than INT_MAX bytes.
// Results are checked byte by byte (element by element for the reductions)
// against a closed form.
//
// A reduction's count is an int, and MPI 3.1 (5.9.2) defines the predefined
// operations on predefined datatypes only (Open MPI 4.1 and hiercoll answer
// a derived type with MPI_ERR_OP), so allreduce and reduce cannot reduce
// more than INT_MAX elements with MPI_SUM; reduce_scatter_block can (its
// input is recvcount * size elements), and the last case does.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <fstream>
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

// MemAvailable from /proc/meminfo in bytes (0 when it cannot be read).
int64_t memory_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  int64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

// Whether the machine has `per_rank` bytes free for every rank: rank 0
// reads it (the ranks share one node) and tells the others, so all skip or
// none.
bool enough_memory(int64_t per_rank, int size, std::string* why) {
  int64_t have = memory_available();
  MPI_Bcast(&have, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  const int64_t need = per_rank * size;
  if (have >= need) return true;
  *why = "needs " + std::to_string(need >> 20) + " MiB free, /proc/meminfo MemAvailable is " +
         std::to_string(have >> 20) + " MiB";
  return false;
}

// Element i of rank r's vector: small integers, so every sum is exact.
double term(int64_t i, int r) { return static_cast<double>((i % 65521) * (r + 1)); }

// Sum over `size` ranks of term(i, r).
double sum_of_terms(int64_t i, int size) { return static_cast<double>((i % 65521) * (int64_t(size) * (size + 1) / 2)); }

void fill_terms(double* p, int64_t n, int r) {
  for (int64_t i = 0; i < n; ++i) p[i] = term(i, r);
}

// Position of the first element that is not sum_of_terms, or -1.
int64_t first_wrong_sum(const double* p, int64_t n, int size) {
  for (int64_t i = 0; i < n; ++i)
    if (p[i] != sum_of_terms(i, size)) return i;
  return -1;
}

// 2^28 + 3 doubles: 2 GiB + 24 bytes, more than INT_MAX bytes in one
// vector; the algorithms named send the whole vector as one step (the
// executor sends it and reduces it in pieces).
constexpr int kLongSum = (1 << 28) + 3;
constexpr int64_t kLongSumBytes = int64_t(kLongSum) * sizeof(double);

// In place; the buffer and one scratch vector per rank.
TEST_F(LargeCount, AllreduceSumPastIntMaxBytesInPlace) {
  ASSERT_GT(kLongSumBytes, INT_MAX);
  std::string why;
  if (!enough_memory(5 * kLongSumBytes / 2, size_, &why)) {
    if (rank_ == 0) std::fprintf(stderr, "AllreduceSumPastIntMaxBytesInPlace skipped: %s\n", why.c_str());
    GTEST_SKIP() << why;
  }
  std::unique_ptr<double[]> buf(new double[kLongSum]);
  for (const char* algorithm : {static_cast<const char*>(nullptr), "recursive_doubling"}) {
    fill_terms(buf.get(), kLongSum, rank_);
    MPI_Comm c = comm_forcing("hiercoll_allreduce_algorithm", algorithm);
    EXPECT_EQ(hiercoll_allreduce(MPI_IN_PLACE, buf.get(), kLongSum, MPI_DOUBLE, MPI_SUM, c), MPI_SUCCESS);
    const std::string used = last_algorithm();
    MPI_Comm_free(&c);
    EXPECT_EQ(used, algorithm ? algorithm : used);
    EXPECT_EQ(first_wrong_sum(buf.get(), kLongSum, size_), -1) << (algorithm ? algorithm : "default");
  }
}

// In place at the root (the last rank); the others send their vector.
TEST_F(LargeCount, ReduceSumPastIntMaxBytes) {
  std::string why;
  if (!enough_memory(5 * kLongSumBytes / 2, size_, &why)) {
    if (rank_ == 0) std::fprintf(stderr, "ReduceSumPastIntMaxBytes skipped: %s\n", why.c_str());
    GTEST_SKIP() << why;
  }
  const int root = size_ - 1;
  std::unique_ptr<double[]> buf(new double[kLongSum]);
  for (const char* algorithm : {static_cast<const char*>(nullptr), "binomial"}) {
    fill_terms(buf.get(), kLongSum, rank_);
    MPI_Comm c = comm_forcing("hiercoll_reduce_algorithm", algorithm);
    const void* send = rank_ == root ? MPI_IN_PLACE : buf.get();
    EXPECT_EQ(hiercoll_reduce(send, rank_ == root ? buf.get() : nullptr, kLongSum, MPI_DOUBLE, MPI_SUM, root, c),
              MPI_SUCCESS);
    const std::string used = last_algorithm();
    MPI_Comm_free(&c);
    EXPECT_EQ(used, algorithm ? algorithm : used);
    if (rank_ == root) {
      EXPECT_EQ(first_wrong_sum(buf.get(), kLongSum, size_), -1) << (algorithm ? algorithm : "default");
    }
  }
}

// Element i of rank r's input to the reduce_scatter_block below, and the sum
// over `size` ranks.  No sum exceeds 255: Open MPI 4.1's AVX operations
// saturate where C would wrap (open-mpi/ompi#8045, "wontfix"), so an
// overflowing sum has no single right answer.
int64_t byte_base(int64_t i, int size) { return (i * 37 + (i >> 24)) % (256 / (size * (size + 1) / 2)); }
uint8_t byte_term(int64_t i, int r, int size) { return static_cast<uint8_t>(byte_base(i, size) * (r + 1)); }
uint8_t byte_sum(int64_t i, int size) { return static_cast<uint8_t>(byte_base(i, size) * (size * (size + 1) / 2)); }

// In place: every rank's input holds 2 * (2^30 + 1) bytes of MPI_UINT8_T,
// more than INT_MAX elements, reduced with MPI_SUM; rank r keeps block r.
TEST_F(LargeCount, ReduceScatterBlockSumPastIntMaxElementsInPlace) {
  const int block = (1 << 30) + 1;
  const int64_t total = int64_t(block) * size_;
  ASSERT_GT(total, INT_MAX);
  std::string why;
  if (!enough_memory(3 * total, size_, &why)) {
    if (rank_ == 0) std::fprintf(stderr, "ReduceScatterBlockSumPastIntMaxElementsInPlace skipped: %s\n", why.c_str());
    GTEST_SKIP() << why;
  }
  std::unique_ptr<uint8_t[]> buf(new uint8_t[total]);
  for (int64_t i = 0; i < total; ++i) buf[i] = byte_term(i, rank_, size_);
  EXPECT_EQ(hiercoll_reduce_scatter_block(MPI_IN_PLACE, buf.get(), block, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD),
            MPI_SUCCESS);
  const int64_t first = int64_t(block) * rank_;
  int64_t wrong = -1;
  for (int64_t i = 0; i < block && wrong < 0; ++i)
    if (buf[i] != byte_sum(first + i, size_)) wrong = i;
  EXPECT_EQ(wrong, -1);
}

}  // namespace
}  // namespace hiercoll::testing
