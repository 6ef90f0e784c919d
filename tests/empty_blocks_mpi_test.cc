// Empty data described differently on different ranks (MPI-legal: the type
// signatures match): one side passes elements of a datatype of size zero,
// the other zero elements of an ordinary one.  Whether a block is a message
// must be decided in bytes, alike on both sides, or one side waits forever
// (the harness's watchdog ends a hang).  Every collective hiercoll serves,
// blocking and nonblocking, hierarchical and flat, in place where MPI
// allows it; receive buffers of empty blocks stay untouched, and real data
// beside the empty blocks arrives.
#include <mpi.h>

#include <vector>

#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

constexpr int kUntouched = -7;
constexpr int kBlock = 3;  // ints of a block with data

class EmptyBlocksTest : public RankedMpiTest {
 protected:
  void SetUp() override {
    RankedMpiTest::SetUp();
    MPI_Type_contiguous(0, MPI_INT, &empty_);
    MPI_Type_commit(&empty_);
    MPI_Op_create(add_ints, 1, &add_);
  }
  void TearDown() override {
    MPI_Op_free(&add_);
    MPI_Type_free(&empty_);
    RankedMpiTest::TearDown();
  }
  // Odd ranks describe empty data as elements of the zero-size datatype,
  // even ranks as no MPI_INTs.
  bool zero_size_side() const { return rank_ % 2 == 1; }
  MPI_Datatype type() const { return zero_size_side() ? empty_ : MPI_INT; }
  int count(int elements) const { return zero_size_side() ? elements : 0; }

  std::vector<int> untouched(size_t n) const { return std::vector<int>(n, kUntouched); }

  // A user operation (MPI defines its predefined ones on predefined
  // datatypes only); empty data is no reduction, so it counts the calls
  // that have none.
  static void add_ints(void* in, void* inout, int* len, MPI_Datatype* type) {
    int size = 0;
    MPI_Type_size(*type, &size);
    if (size == 0) ++calls_on_empty_data;
    if (size == 0) return;
    for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
  }
  static int calls_on_empty_data;

  MPI_Datatype empty_ = MPI_DATATYPE_NULL;
  MPI_Op add_ = MPI_OP_NULL;
};

int EmptyBlocksTest::calls_on_empty_data = 0;

// Runs a blocking call, or its nonblocking form and waits.
template <typename Blocking, typename Start>
int run(bool nonblocking, Blocking blocking, Start start) {
  if (!nonblocking) return blocking();
  MPI_Request req = MPI_REQUEST_NULL;
  const int rc = start(&req);
  return rc != MPI_SUCCESS ? rc : MPI_Wait(&req, MPI_STATUS_IGNORE);
}

class EveryPath : public EmptyBlocksTest {
 protected:
  template <typename Body>
  void for_every_path(Body body) {
    for (const char* mode : {"hier", "flat"}) {
      MPI_Comm comm = world_with_hints({{"hiercoll", mode}});
      for (bool nonblocking : {false, true}) body(comm, nonblocking);
      MPI_Comm_free(&comm);
    }
  }
};

TEST_F(EveryPath, RootedCallsOfEmptyDataMoveNothing) {
  const int p = size_;
  for_every_path([&](MPI_Comm comm, bool nb) {
    for (int root = 0; root < p; ++root) {
      const int k = 5;
      std::vector<int> in(k * p, 1), out = untouched(k * p);
      EXPECT_EQ(run(
                    nb, [&] { return MPI_Bcast(out.data(), count(k), type(), root, comm); },
                    [&](MPI_Request* q) { return MPI_Ibcast(out.data(), count(k), type(), root, comm, q); }),
                MPI_SUCCESS);
      EXPECT_EQ(
          run(
              nb, [&] { return MPI_Gather(in.data(), count(k), type(), out.data(), count(2), type(), root, comm); },
              [&](MPI_Request* q) {
                return MPI_Igather(in.data(), count(k), type(), out.data(), count(2), type(), root, comm, q);
              }),
          MPI_SUCCESS);
      EXPECT_EQ(
          run(
              nb, [&] { return MPI_Scatter(in.data(), count(1), type(), out.data(), count(k), type(), root, comm); },
              [&](MPI_Request* q) {
                return MPI_Iscatter(in.data(), count(1), type(), out.data(), count(k), type(), root, comm, q);
              }),
          MPI_SUCCESS);
      EXPECT_EQ(out, untouched(k * p)) << "root " << root << (nb ? " nonblocking" : "");
    }
  });
}

TEST_F(EveryPath, UnrootedCallsOfEmptyDataMoveNothing) {
  const int p = size_;
  for_every_path([&](MPI_Comm comm, bool nb) {
    const int k = 4;
    std::vector<int> in(k * p, 1), out = untouched(k * p);
    EXPECT_EQ(run(
                  nb, [&] { return MPI_Allgather(in.data(), count(k), type(), out.data(), count(k), type(), comm); },
                  [&](MPI_Request* q) {
                    return MPI_Iallgather(in.data(), count(k), type(), out.data(), count(k), type(), comm, q);
                  }),
              MPI_SUCCESS);
    EXPECT_EQ(run(
                  nb, [&] { return MPI_Alltoall(in.data(), count(k), type(), out.data(), count(1), type(), comm); },
                  [&](MPI_Request* q) {
                    return MPI_Ialltoall(in.data(), count(k), type(), out.data(), count(1), type(), comm, q);
                  }),
              MPI_SUCCESS);
    EXPECT_EQ(run(
                  nb, [&] { return MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, out.data(), count(1), type(), comm); },
                  [&](MPI_Request* q) {
                    return MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_INT, out.data(), count(1), type(), comm, q);
                  }),
              MPI_SUCCESS);
    EXPECT_EQ(run(
                  nb, [&] { return MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, out.data(), count(k), type(), comm); },
                  [&](MPI_Request* q) {
                    return MPI_Iallgather(MPI_IN_PLACE, 0, MPI_INT, out.data(), count(k), type(), comm, q);
                  }),
              MPI_SUCCESS);
    // Reductions: every rank passes the same datatype (MPI requires it);
    // the zero-size one with a count is as empty as no elements.
    for (MPI_Datatype t : {empty_, MPI_INT}) {
      const int n = t == empty_ ? k : 0;
      const MPI_Op op = t == empty_ ? add_ : MPI_SUM;
      for (int root : {0, p - 1})
        EXPECT_EQ(run(
                      nb, [&] { return MPI_Reduce(in.data(), out.data(), n, t, op, root, comm); },
                      [&](MPI_Request* q) { return MPI_Ireduce(in.data(), out.data(), n, t, op, root, comm, q); }),
                  MPI_SUCCESS);
      EXPECT_EQ(run(
                    nb, [&] { return MPI_Allreduce(in.data(), out.data(), n, t, op, comm); },
                    [&](MPI_Request* q) { return MPI_Iallreduce(in.data(), out.data(), n, t, op, comm, q); }),
                MPI_SUCCESS);
      EXPECT_EQ(run(
                    nb, [&] { return MPI_Scan(in.data(), out.data(), n, t, op, comm); },
                    [&](MPI_Request* q) { return MPI_Iscan(in.data(), out.data(), n, t, op, comm, q); }),
                MPI_SUCCESS);
      EXPECT_EQ(run(
                    nb, [&] { return MPI_Exscan(in.data(), out.data(), n, t, op, comm); },
                    [&](MPI_Request* q) { return MPI_Iexscan(in.data(), out.data(), n, t, op, comm, q); }),
                MPI_SUCCESS);
      EXPECT_EQ(
          run(
              nb, [&] { return MPI_Reduce_scatter_block(in.data(), out.data(), n, t, op, comm); },
              [&](MPI_Request* q) { return MPI_Ireduce_scatter_block(in.data(), out.data(), n, t, op, comm, q); }),
          MPI_SUCCESS);
      const std::vector<int> counts(p, n);
      EXPECT_EQ(run(
                    nb, [&] { return MPI_Reduce_scatter(in.data(), out.data(), counts.data(), t, op, comm); },
                    [&](MPI_Request* q) {
                      return MPI_Ireduce_scatter(in.data(), out.data(), counts.data(), t, op, comm, q);
                    }),
                MPI_SUCCESS);
    }
    EXPECT_EQ(out, untouched(k * p)) << (nb ? "nonblocking" : "blocking");
  });
  EXPECT_EQ(calls_on_empty_data, 0);
}

// The v-variants with data between even ranks and the odd ranks' blocks
// empty in the zero-size datatype: even ranks' blocks arrive, the rest of
// every buffer stays untouched.
class VariantsTest : public EveryPath {
 protected:
  // Counts of this rank's blocks to or from each rank, in this rank's own
  // datatype: kBlock ints between even ranks, one zero-size element where
  // this rank is odd, none where only the peer is.
  std::vector<int> counts() const {
    std::vector<int> c(size_);
    for (int j = 0; j < size_; ++j) c[j] = zero_size_side() ? 1 : (j % 2 == 0 ? kBlock : 0);
    return c;
  }
  std::vector<int> displs() const {
    std::vector<int> d(size_);
    for (int j = 0; j < size_; ++j) d[j] = j * kBlock;
    return d;
  }
  // What this rank's block j holds after receiving from rank `from`'s
  // block for this rank: i-th int = from * 1000 + to * 10 + i.
  static int value(int from, int to, int i) { return from * 1000 + to * 10 + i; }
  // A buffer of every rank's block where this rank expects each even
  // rank j's block (value(j, to(j), i)) if it is even itself, untouched
  // elsewhere.
  template <typename To>
  std::vector<int> even_blocks(To to) const {
    std::vector<int> e = untouched(size_t(size_) * kBlock);
    if (zero_size_side()) return e;
    for (int j = 0; j < size_; j += 2)
      for (int i = 0; i < kBlock; ++i) e[j * kBlock + i] = value(j, to(j), i);
    return e;
  }
};

TEST_F(VariantsTest, AlltoallvMixesDataAndZeroSizeBlocks) {
  const int p = size_;
  for_every_path([&](MPI_Comm comm, bool nb) {
    std::vector<int> in(size_t(p) * kBlock);
    for (int j = 0; j < p; ++j)
      for (int i = 0; i < kBlock; ++i) in[j * kBlock + i] = value(rank_, j, i);
    const std::vector<int> c = counts(), d = displs();
    const MPI_Datatype t = type();
    std::vector<int> out = untouched(in.size());
    EXPECT_EQ(
        run(
            nb,
            [&] { return MPI_Alltoallv(in.data(), c.data(), d.data(), t, out.data(), c.data(), d.data(), t, comm); },
            [&](MPI_Request* q) {
              return MPI_Ialltoallv(in.data(), c.data(), d.data(), t, out.data(), c.data(), d.data(), t, comm, q);
            }),
        MPI_SUCCESS);
    const std::vector<int> want = even_blocks([&](int) { return rank_; });
    EXPECT_EQ(out, want) << (nb ? "nonblocking" : "blocking");
    // In place: the input is the receive buffer; odd blocks keep it.
    std::vector<int> io = in;
    EXPECT_EQ(
        run(
            nb,
            [&] {
              return MPI_Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_INT, io.data(), c.data(), d.data(), t, comm);
            },
            [&](MPI_Request* q) {
              return MPI_Ialltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_INT, io.data(), c.data(), d.data(), t, comm, q);
            }),
        MPI_SUCCESS);
    std::vector<int> want_in_place = in;
    for (size_t i = 0; i < in.size(); ++i)
      if (want[i] != kUntouched) want_in_place[i] = want[i];
    EXPECT_EQ(io, want_in_place) << (nb ? "nonblocking" : "blocking");
  });
}

TEST_F(VariantsTest, RootedAndAllgatherVariantsMixDataAndZeroSizeBlocks) {
  const int p = size_;
  for_every_path([&](MPI_Comm comm, bool nb) {
    const char* how = nb ? "nonblocking" : "blocking";
    const std::vector<int> c = counts(), d = displs();
    const MPI_Datatype t = type();
    for (int root = 0; root < p; ++root) {
      // Gatherv: even ranks send kBlock ints to an even root; the rest send
      // or receive empty blocks.
      std::vector<int> mine(kBlock);
      for (int i = 0; i < kBlock; ++i) mine[i] = value(rank_, root, i);
      const int n = zero_size_side() ? 1 : (root % 2 == 0 ? kBlock : 0);
      std::vector<int> out = untouched(size_t(p) * kBlock);
      EXPECT_EQ(run(
                    nb, [&] { return MPI_Gatherv(mine.data(), n, t, out.data(), c.data(), d.data(), t, root, comm); },
                    [&](MPI_Request* q) {
                      return MPI_Igatherv(mine.data(), n, t, out.data(), c.data(), d.data(), t, root, comm, q);
                    }),
                MPI_SUCCESS);
      const std::vector<int> gathered = rank_ == root ? even_blocks([&](int) { return root; }) : untouched(out.size());
      EXPECT_EQ(out, gathered) << how << " gatherv root " << root;

      // Scatterv: the root's blocks for even ranks.
      std::vector<int> blocks(size_t(p) * kBlock);
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < kBlock; ++i) blocks[j * kBlock + i] = value(root, j, i);
      std::vector<int> got = untouched(kBlock);
      EXPECT_EQ(
          run(
              nb, [&] { return MPI_Scatterv(blocks.data(), c.data(), d.data(), t, got.data(), n, t, root, comm); },
              [&](MPI_Request* q) {
                return MPI_Iscatterv(blocks.data(), c.data(), d.data(), t, got.data(), n, t, root, comm, q);
              }),
          MPI_SUCCESS);
      std::vector<int> want = untouched(kBlock);
      if (!zero_size_side() && root % 2 == 0)
        for (int i = 0; i < kBlock; ++i) want[i] = value(root, rank_, i);
      EXPECT_EQ(got, want) << how << " scatterv root " << root;
    }
    // Allgatherv: every even rank's block to every even rank.
    std::vector<int> mine(kBlock);
    for (int i = 0; i < kBlock; ++i) mine[i] = value(rank_, rank_, i);
    const int n = zero_size_side() ? 1 : kBlock;
    std::vector<int> out = untouched(size_t(p) * kBlock);
    EXPECT_EQ(run(
                  nb, [&] { return MPI_Allgatherv(mine.data(), n, t, out.data(), c.data(), d.data(), t, comm); },
                  [&](MPI_Request* q) {
                    return MPI_Iallgatherv(mine.data(), n, t, out.data(), c.data(), d.data(), t, comm, q);
                  }),
              MPI_SUCCESS);
    EXPECT_EQ(out, even_blocks([](int j) { return j; })) << how << " allgatherv";
  });
}

}  // namespace
}  // namespace hiercoll::testing
