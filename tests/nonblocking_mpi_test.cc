// Nonblocking collectives (runtime/requests.h) on every emulated layout:
// every MPI_I<op> against MPI's blocking result (datatypes, counts 0, 1,
// odd and large, every root, MPI_IN_PLACE, a non-commutative operation,
// hier and flat paths); many calls outstanding together, completed in any
// order and mixed with blocking ones; requests mixed with point-to-point
// ones in Waitany/Testsome; MPI_Request_free; statuses; nothing left alive
// once a communicator is freed.  The progress thread: progress_thread_test.
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "call_by_op/call_by_op.h"
#include "runtime/handle_pins.h"
#include "runtime/requests.h"
#include "runtime/stats.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"
#include "topo/topology.h"

namespace hiercoll::testing {
namespace {

using NonblockingTest = RankedMpiTest;

TEST_F(NonblockingTest, EveryOperationMatchesMpi) {
  for (const char* mode : {"hier", "flat"}) {
    MPI_Comm comm = world_with_hints({{"hiercoll", mode}});
    for (int api = 0; api < kNumApiOps; ++api) {
      const ApiOp op = static_cast<ApiOp>(api);
      for (const DataCase& dc : data_cases()) {
        // The whole matrix on the hierarchical path, int sums on the flat one.
        if (mode[0] == 'f' && dc.name != "int_sum") continue;
        for (int count : {0, 1, 7, 1001}) {
          for (int root = 0; root < (is_rooted(op) ? size_ : 1); ++root) {
            for (bool in_place : {false, true}) {
              const MpiCase c{op, &dc, count, root, in_place};
              if (in_place && !allows_in_place(op)) continue;
              EXPECT_EQ(compare_with_native(c, comm, Via::kMpiNonblocking), "") << mode;
            }
          }
        }
      }
    }
    MPI_Comm_free(&comm);
  }
}

// Long messages (pipelined schedules, several segments) and datatypes that
// differ between the two sides of a call.
TEST_F(NonblockingTest, LargeAndTypedCallsMatchMpi) {
  for (int api = 0; api < kNumApiOps; ++api) {
    const ApiOp op = static_cast<ApiOp>(api);
    const int count = op == ApiOp::kAlltoall || op == ApiOp::kAllgather || op == ApiOp::kGather ||
                              op == ApiOp::kScatter || op == ApiOp::kReduceScatterBlock
                          ? 20000
                          : 150000;
    EXPECT_EQ(compare_with_native(MpiCase{op, &data_case("int_sum"), count, size_ - 1, false}, MPI_COMM_WORLD,
                                  Via::kMpiNonblocking),
              "");
  }
  for (ApiOp op : {ApiOp::kBcast, ApiOp::kGather, ApiOp::kScatter, ApiOp::kAllgather, ApiOp::kAlltoall})
    for (const TypedCase& c : typed_pairs(op, 3 * 333, size_ / 2))
      EXPECT_EQ(compare_typed_with_native(c, MPI_COMM_WORLD, Via::kMpiNonblocking), "");
}

// Calls outstanding together on one communicator, blocking ones between
// them, completed in an order that differs between ranks: each call has its
// own messages (tags), so every result is right.
TEST_F(NonblockingTest, ManyOutstandingCallsCompleteInAnyOrder) {
  const int p = size_, r = rank_;
  constexpr int kCalls = 24;
  const int n = 3000;  // several segments for some schedules
  std::vector<std::vector<long>> in(kCalls, std::vector<long>(n)), out(kCalls);
  std::vector<MPI_Request> reqs(kCalls, MPI_REQUEST_NULL);
  std::vector<long> blocking_in(n, r + 1), blocking_out(n);
  for (int k = 0; k < kCalls; ++k) {
    for (int i = 0; i < n; ++i) in[k][i] = long(r) * 1000 + k * 7 + i % 5;
    switch (k % 4) {
      case 0:
        out[k].assign(n, -1);
        ASSERT_EQ(MPI_Iallreduce(in[k].data(), out[k].data(), n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &reqs[k]),
                  MPI_SUCCESS);
        break;
      case 1:
        out[k] = in[k];
        ASSERT_EQ(MPI_Ibcast(out[k].data(), n, MPI_LONG, k % p, MPI_COMM_WORLD, &reqs[k]), MPI_SUCCESS);
        break;
      case 2:
        out[k].assign(size_t(p) * 10, -1);
        ASSERT_EQ(MPI_Iallgather(in[k].data(), 10, MPI_LONG, out[k].data(), 10, MPI_LONG, MPI_COMM_WORLD, &reqs[k]),
                  MPI_SUCCESS);
        break;
      case 3:
        ASSERT_EQ(MPI_Ibarrier(MPI_COMM_WORLD, &reqs[k]), MPI_SUCCESS);
        break;
    }
    if (k == kCalls / 2) {
      EXPECT_EQ(MPI_Allreduce(blocking_in.data(), blocking_out.data(), n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD),
                MPI_SUCCESS);
    }
  }
  EXPECT_EQ(blocking_out, std::vector<long>(n, long(p) * (p + 1) / 2));
  // Rank-dependent completion order: reversed on even ranks, rotated on odd.
  std::vector<int> order(kCalls);
  std::iota(order.begin(), order.end(), 0);
  if (r % 2 == 0) std::reverse(order.begin(), order.end());
  else std::rotate(order.begin(), order.begin() + r % kCalls, order.end());
  for (int k : order) EXPECT_EQ(MPI_Wait(&reqs[k], MPI_STATUS_IGNORE), MPI_SUCCESS);
  for (int k = 0; k < kCalls; ++k) {
    std::vector<long> expect;
    switch (k % 4) {
      case 0:
        for (int i = 0; i < n; ++i) expect.push_back(1000L * p * (p - 1) / 2 + long(p) * (k * 7 + i % 5));
        break;
      case 1:
        for (int i = 0; i < n; ++i) expect.push_back(long(k % p) * 1000 + k * 7 + i % 5);
        break;
      case 2:
        for (int j = 0; j < p; ++j)
          for (int i = 0; i < 10; ++i) expect.push_back(long(j) * 1000 + k * 7 + i % 5);
        break;
      case 3: break;
    }
    if (k % 4 != 3) {
      EXPECT_EQ(out[k], expect) << "call " << k;
    }
  }
  EXPECT_EQ(live_requests(), 0);
}

// A collective's request among point-to-point ones, completed by Waitany
// and by Testsome loops; statuses of a collective say success and nothing
// else (MPI-3.1 §5.12).
TEST_F(NonblockingTest, RequestsMixWithPointToPoint) {
  const int p = size_, r = rank_;
  const int right = (r + 1) % p, left = (r + p - 1) % p;
  for (bool use_waitany : {true, false}) {
    std::vector<int> mine(5000, r), sum(5000, -1);
    int sent = 100 + r, got = -1;
    MPI_Request reqs[3];
    ASSERT_EQ(MPI_Irecv(&got, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &reqs[0]), MPI_SUCCESS);
    ASSERT_EQ(MPI_Iallreduce(mine.data(), sum.data(), 5000, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[1]),
              MPI_SUCCESS);
    ASSERT_EQ(MPI_Isend(&sent, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &reqs[2]), MPI_SUCCESS);
    int completed = 0;
    MPI_Status statuses[3];
    while (completed < 3) {
      if (use_waitany) {
        int index = MPI_UNDEFINED;
        MPI_Status st;
        ASSERT_EQ(MPI_Waitany(3, reqs, &index, &st), MPI_SUCCESS);
        ASSERT_NE(index, MPI_UNDEFINED);
        statuses[index] = st;
        ++completed;
      } else {
        int outcount = 0, indices[3];
        MPI_Status st[3];
        ASSERT_EQ(MPI_Testsome(3, reqs, &outcount, indices, st), MPI_SUCCESS);
        ASSERT_NE(outcount, MPI_UNDEFINED);
        for (int k = 0; k < outcount; ++k) statuses[indices[k]] = st[k];
        completed += outcount;
      }
    }
    EXPECT_EQ(got, 100 + left);
    EXPECT_EQ(sum, std::vector<int>(5000, p * (p - 1) / 2));
    EXPECT_EQ(statuses[0].MPI_SOURCE, left);
    int bytes = -1, cancelled = 1;
    MPI_Get_count(&statuses[1], MPI_BYTE, &bytes);
    MPI_Test_cancelled(&statuses[1], &cancelled);
    EXPECT_EQ(bytes, 0);
    EXPECT_EQ(cancelled, 0);
  }
  // Waitall with statuses and with MPI_STATUSES_IGNORE.
  for (bool ignore : {false, true}) {
    std::vector<double> v(777, r == 0 ? 1.5 : 0.0);
    MPI_Request reqs[2];
    ASSERT_EQ(MPI_Ibcast(v.data(), 777, MPI_DOUBLE, 0, MPI_COMM_WORLD, &reqs[0]), MPI_SUCCESS);
    ASSERT_EQ(MPI_Ibarrier(MPI_COMM_WORLD, &reqs[1]), MPI_SUCCESS);
    MPI_Status st[2];
    EXPECT_EQ(MPI_Waitall(2, reqs, ignore ? MPI_STATUSES_IGNORE : st), MPI_SUCCESS);
    EXPECT_EQ(reqs[0], MPI_REQUEST_NULL);
    EXPECT_EQ(v, std::vector<double>(777, 1.5));
  }
}

// A freed request's call still completes (driven by later MPI calls) and
// its state goes with it.
TEST_F(NonblockingTest, FreedRequestStillCompletes) {
  std::vector<int> v(20000, rank_ == 1 % size_ ? 9 : 0);
  MPI_Request req;
  ASSERT_EQ(MPI_Ibcast(v.data(), 20000, MPI_INT, 1 % size_, MPI_COMM_WORLD, &req), MPI_SUCCESS);
  ASSERT_EQ(MPI_Request_free(&req), MPI_SUCCESS);
  EXPECT_EQ(req, MPI_REQUEST_NULL);
  // A later barrier completes only once every rank started its bcast; the
  // bcast itself finishes in the following Test calls.
  ASSERT_EQ(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
  MPI_Request none = MPI_REQUEST_NULL;
  int flag = 0;
  for (int i = 0; i < 10000000 && requests_active(); ++i) MPI_Test(&none, &flag, MPI_STATUS_IGNORE);
  EXPECT_FALSE(requests_active());
  EXPECT_EQ(v, std::vector<int>(20000, 9));
  EXPECT_EQ(live_requests(), 0);
}

// Freeing a communicator: with completed requests nothing stays alive; with
// one still running, MPI_Comm_free returns at once (the handle is null) and
// the communicator goes when the call has finished.
TEST_F(NonblockingTest, FreeingTheCommunicatorLeavesNothing) {
  const int topologies = live_topologies();
  for (bool wait_first : {true, false}) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    std::vector<long> in(4000, rank_), out(4000, -1);
    MPI_Request req;
    ASSERT_EQ(MPI_Iallreduce(in.data(), out.data(), 4000, MPI_LONG, MPI_SUM, c, &req), MPI_SUCCESS);
    if (wait_first) {
      EXPECT_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    }
    MPI_Comm_free(&c);
    EXPECT_EQ(c, MPI_COMM_NULL);
    if (!wait_first) {
      EXPECT_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    }
    EXPECT_EQ(out, std::vector<long>(4000, long(size_) * (size_ - 1) / 2));
    EXPECT_EQ(live_requests(), 0);
    EXPECT_EQ(live_topologies(), topologies);
  }
}

// An affine map x -> a x + b per int pair; composing is associative and not
// commutative, so a result is right only in rank order.
void compose_affine(void* in, void* inout, int* len, MPI_Datatype*) {
  const int* f = static_cast<const int*>(in);
  int* g = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i, f += 2, g += 2) {
    const unsigned a = unsigned(f[0]) * unsigned(g[0]), b = unsigned(f[0]) * unsigned(g[1]) + unsigned(f[1]);
    g[0] = int(a);
    g[1] = int(b);
  }
}

// MPI keeps a freed operation, datatype or communicator valid for the
// operations started with it (MPI-3.1 4.1.9, 5.9.5, 6.4.3): freed right
// after the start, the calls still run with them and give MPI's results;
// the handles go once the calls are done, and the program's handles are
// null at once.
TEST_F(NonblockingTest, HandlesFreedWhilePendingStayUsable) {
  const int p = size_, n = 3001;
  const int pinned = pinned_handles(), topologies = live_topologies();
  for (int round = 0; round < 3; ++round) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Op op;
    MPI_Op_create(compose_affine, 0, &op);
    // Every other int, resized to span its gaps: 2n ints a block.
    MPI_Datatype pair, vector, strided;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_vector(n, 1, 2, MPI_INT, &vector);
    MPI_Type_create_resized(vector, 0, 2 * n * sizeof(int), &strided);
    MPI_Type_free(&vector);
    MPI_Type_commit(&strided);

    std::vector<int> maps(2 * n), composed(2 * n, -1), want(2 * n);
    for (int i = 0; i < n; ++i) maps[2 * i] = 2 * rank_ + i % 3 + 1, maps[2 * i + 1] = rank_ + round + i;
    PMPI_Allreduce(maps.data(), want.data(), n, pair, op, MPI_COMM_WORLD);
    std::vector<int> spread(2 * n, -1), gathered(size_t(p) * 2 * n, -1);
    for (int i = 0; i < n; ++i) spread[2 * i] = rank_ * n + i;
    MPI_Request reqs[2];
    ASSERT_EQ(MPI_Iallreduce(maps.data(), composed.data(), n, pair, op, c, &reqs[0]), MPI_SUCCESS);
    ASSERT_EQ(MPI_Igather(spread.data(), 1, strided, gathered.data(), 1, strided, p - 1, c, &reqs[1]), MPI_SUCCESS);
    EXPECT_EQ(MPI_Op_free(&op), MPI_SUCCESS);
    EXPECT_EQ(MPI_Type_free(&pair), MPI_SUCCESS);
    EXPECT_EQ(MPI_Type_free(&strided), MPI_SUCCESS);
    EXPECT_EQ(MPI_Comm_free(&c), MPI_SUCCESS);
    EXPECT_EQ(op, MPI_OP_NULL);
    EXPECT_EQ(pair, MPI_DATATYPE_NULL);
    EXPECT_EQ(c, MPI_COMM_NULL);
    if (round % 2) {
      for (int k : {1, 0}) EXPECT_EQ(MPI_Wait(&reqs[k], MPI_STATUS_IGNORE), MPI_SUCCESS);
    } else {
      EXPECT_EQ(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    }
    EXPECT_EQ(composed, want) << "round " << round;
    std::vector<int> want_gathered(gathered.size(), -1);
    if (rank_ == p - 1)
      for (int r = 0; r < p; ++r)
        for (int i = 0; i < n; ++i) want_gathered[size_t(r) * 2 * n + 2 * i] = r * n + i;
    EXPECT_EQ(gathered, want_gathered) << "round " << round;
  }
  EXPECT_EQ(pinned_handles(), pinned);
  EXPECT_EQ(live_requests(), 0);
  EXPECT_EQ(live_topologies(), topologies);
}

// A free that nothing pins is MPI's own, errors included.
TEST_F(NonblockingTest, FreesOfUnpinnedHandlesAreMpis) {
  MPI_Datatype t;
  MPI_Type_dup(MPI_INT, &t);
  EXPECT_EQ(MPI_Type_free(&t), MPI_SUCCESS);
  EXPECT_EQ(t, MPI_DATATYPE_NULL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype predefined = MPI_INT;
  EXPECT_NE(MPI_Type_free(&predefined), MPI_SUCCESS);
  MPI_Op sum = MPI_SUM;
  EXPECT_NE(MPI_Op_free(&sum), MPI_SUCCESS);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

// Bad input: the error class at the call, through the handler, and no
// request; a null request pointer is MPI_ERR_REQUEST.
TEST_F(NonblockingTest, BadArgumentsFailAtTheCall) {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  int x = 0, y = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  int cls = 0;
  MPI_Error_class(MPI_Iallreduce(&x, &y, -1, MPI_INT, MPI_SUM, c, &req), &cls);
  EXPECT_EQ(cls, MPI_ERR_COUNT);
  MPI_Error_class(MPI_Ibcast(&x, 1, MPI_INT, size_, c, &req), &cls);
  EXPECT_EQ(cls, MPI_ERR_ROOT);
  MPI_Error_class(MPI_Ibarrier(c, nullptr), &cls);
  EXPECT_EQ(cls, MPI_ERR_REQUEST);
  EXPECT_EQ(req, MPI_REQUEST_NULL);
  EXPECT_EQ(live_requests(), 0);
  MPI_Comm_free(&c);
}

// Statistics count a nonblocking call like its blocking one.
TEST_F(NonblockingTest, CountedLikeBlockingCalls) {
  const long before = local_count(ApiOp::kAllreduce, Path::kHier) + local_count(ApiOp::kAllreduce, Path::kFlat);
  int x = 1, y = 0;
  MPI_Request req;
  ASSERT_EQ(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_SUCCESS);
  ASSERT_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(y, size_);
  EXPECT_EQ(local_count(ApiOp::kAllreduce, Path::kHier) + local_count(ApiOp::kAllreduce, Path::kFlat), before + 1);
}

long served(ApiOp op) { return local_count(op, Path::kHier) + local_count(op, Path::kFlat); }

// The nonblocking v-variants run hiercoll's schedules (counted as served,
// not as MPI's own).  A gatherv or scatterv algorithm or composition that
// needs every block's count on every rank cannot wait for the count
// exchange in a nonblocking call: forced, it falls back visibly, and the
// result is still right.
TEST_F(NonblockingTest, VectorVariantsRunHiercollSchedules) {
  const DataCase& ints = data_case("int_sum");
  for (ApiOp op : {ApiOp::kGatherv, ApiOp::kScatterv, ApiOp::kAllgatherv, ApiOp::kAlltoallv, ApiOp::kAlltoallw}) {
    const long before = served(op);
    EXPECT_EQ(compare_vector_with_native(op, ints, ints, 100, 0, size_ - 1, false, true, MPI_COMM_WORLD,
                                         Via::kMpiNonblocking),
              "");
    EXPECT_EQ(served(op), before + 1) << api_op_name(op);
  }
  const std::pair<const char*, const char*> forced[] = {{"hiercoll_gatherv_algorithm", "binomial"},
                                                         {"hiercoll_gatherv_composition", "gatherv"}};
  for (const auto& hint : forced) {
    MPI_Comm comm = world_with_hints({hint});
    const long fallbacks = local_fallbacks(ApiOp::kGatherv);
    for (int root = 0; root < size_; ++root)
      EXPECT_EQ(compare_vector_with_native(ApiOp::kGatherv, ints, ints, 50, 0, root, false, true, comm,
                                           Via::kMpiNonblocking),
                "")
          << hint.first;
    // The forced binomial tree never fits a nonblocking gatherv.
    if (hint.second == std::string("binomial")) {
      EXPECT_EQ(local_fallbacks(ApiOp::kGatherv), fallbacks + size_);
    }
    MPI_Comm_free(&comm);
  }
}

}  // namespace
}  // namespace hiercoll::testing
