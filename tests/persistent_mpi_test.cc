// Persistent collectives (runtime/persistent.h) on every emulated layout:
// every MPIX_<op>_init started many times, with new data before each start,
// against Open MPI's blocking collective on the same data (every root, in
// place, a derived datatype with gaps, hier and flat); MPI_Startall mixing
// collectives and point-to-point persistent requests; the request's handle
// kept across starts; starting an active request; MPI_Request_free of an
// inactive one; datatypes, an operation and a communicator freed right
// after init; statistics per start.
#include <mpi.h>
// After mpi.h, which it needs.
#include <mpi-ext.h>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/handle_pins.h"
#include "runtime/persistent.h"
#include "runtime/requests.h"
#include "runtime/stats.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

using PersistentTest = RankedMpiTest;

constexpr int kStarts = 4;

MPI_Comm comm_with_mode(const char* mode) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "hiercoll", mode);
  MPI_Comm_set_info(comm, info);
  MPI_Info_free(&info);
  return comm;
}

bool is_rooted(ApiOp op) {
  return op == ApiOp::kBcast || op == ApiOp::kReduce || op == ApiOp::kGather || op == ApiOp::kScatter ||
         op == ApiOp::kGatherv || op == ApiOp::kScatterv;
}
bool allows_in_place(ApiOp op) { return op != ApiOp::kBcast && op != ApiOp::kBarrier; }

// The datatype of a case: ints, or every element two ints with a gap
// after each (vector(2, 1, 2) resized to 4 ints), which is not its bytes
// in order (a bcast packs it).
struct TypeCase {
  MPI_Datatype type;
  int ints_per_extent;
};

// One call's buffers on one side (hiercoll's or Open MPI's), and the call
// itself: `persistent` makes the MPIX_<op>_init request, else it runs
// Open MPI's blocking collective (PMPI_*).
struct Side {
  std::vector<int> send, recv;
};

class Case {
 public:
  Case(ApiOp op, MPI_Comm comm, int count, int root, bool in_place, TypeCase t)
      : op_(op), comm_(comm), count_(count), root_(root), in_place_(in_place), t_(t) {
    MPI_Comm_rank(comm, &r_);
    MPI_Comm_size(comm, &p_);
    const int e = t.ints_per_extent, n = count, p = p_;
    // Counts of the v-variants and reduce_scatter: uneven, and
    // displacements with a gap of one element between blocks.
    counts_.resize(p);
    displs_.resize(p);
    sdispls_.resize(p);
    rcounts_.resize(p);
    rdispls_.resize(p);
    for (int j = 0; j < p; ++j) counts_[j] = n + j % 3;
    for (int j = 0, d = 0; j < p; ++j) displs_[j] = d, d += counts_[j] + 1;
    // alltoallv: from i to j, n + (i + 2j) % 3 (symmetric in place: n + (i + j) % 3).
    auto a2a = [&](int i, int j) { return n + (in_place ? (i + j) % 3 : (i + 2 * j) % 3); };
    sendcounts_.resize(p);
    for (int j = 0, d = 0; j < p; ++j) sendcounts_[j] = a2a(r_, j), sdispls_[j] = d, d += sendcounts_[j] + 1;
    for (int j = 0, d = 0; j < p; ++j) rcounts_[j] = a2a(j, r_), rdispls_[j] = d, d += rcounts_[j] + 1;
    // alltoallw: alltoallv's blocks, displacements in bytes.
    for (int j = 0; j < p; ++j) {
      sbytes_.push_back(sdispls_[j] * e * int(sizeof(int)));
      rbytes_.push_back(rdispls_[j] * e * int(sizeof(int)));
    }
    types_.assign(p, t.type);
    const int vtotal = displs_[p - 1] + counts_[p - 1];
    const int stotal = sdispls_[p - 1] + sendcounts_[p - 1];
    const int rtotal = rdispls_[p - 1] + rcounts_[p - 1];
    int s = n, rr = n;  // elements of the send and receive buffers
    switch (op) {
      case ApiOp::kBarrier: s = rr = 0; break;
      case ApiOp::kBcast: s = 0; break;
      case ApiOp::kReduceScatterBlock: s = n * p, rr = in_place ? n * p : n; break;
      case ApiOp::kReduceScatter: {
        const int sum = std::accumulate(counts_.begin(), counts_.end(), 0);
        s = sum, rr = in_place ? sum : counts_[r_];
        break;
      }
      case ApiOp::kAllgather: case ApiOp::kGather: rr = n * p; break;
      case ApiOp::kScatter: s = n * p; break;
      case ApiOp::kAlltoall: s = rr = n * p; break;
      case ApiOp::kGatherv: case ApiOp::kAllgatherv: s = counts_[r_], rr = vtotal; break;
      case ApiOp::kScatterv: s = vtotal, rr = counts_[r_]; break;
      case ApiOp::kAlltoallv: case ApiOp::kAlltoallw: s = stotal, rr = rtotal; break;
      default: break;
    }
    for (Side* side : {&hier_, &ref_}) {
      side->send.assign(size_t(s) * e + 1, -7);
      side->recv.assign(size_t(rr) * e + 1, -7);
    }
  }

  // New data on both sides for start k.
  void fill(int k) {
    for (Side* side : {&hier_, &ref_}) {
      for (size_t i = 0; i < side->send.size(); ++i) side->send[i] = (r_ + 1) * 1000 + k * 37 + int(i % 101);
      for (size_t i = 0; i < side->recv.size(); ++i)
        side->recv[i] = in_place_ || op_ == ApiOp::kBcast ? (r_ + 1) * 1000 + k * 53 + int(i % 89) : -1;
    }
  }

  int init(MPI_Request* req) { return call(&hier_, req); }
  int reference() { return call(&ref_, nullptr); }
  const Side& hier() const { return hier_; }
  const Side& ref() const { return ref_; }

 private:
  // MPIX_<op>_init on `s` when req, else PMPI_<op>.
  int call(Side* side, MPI_Request* req) {
    const MPI_Datatype t = t_.type;
    const int n = count_, root = root_;
    MPI_Comm c = comm_;
    const bool here = r_ == root;
    void* sb = side->send.data();
    void* rb = side->recv.data();
    // In place on the ranks where MPI allows it.
    const void* s_in = in_place_ && (!is_rooted(op_) || here) && op_ != ApiOp::kScatter && op_ != ApiOp::kScatterv
                           ? MPI_IN_PLACE
                           : sb;
    void* r_in = in_place_ && here && (op_ == ApiOp::kScatter || op_ == ApiOp::kScatterv) ? MPI_IN_PLACE : rb;
    const MPI_Info i = MPI_INFO_NULL;
    switch (op_) {
      case ApiOp::kBarrier: return req ? MPIX_Barrier_init(c, i, req) : PMPI_Barrier(c);
      case ApiOp::kBcast: return req ? MPIX_Bcast_init(rb, n, t, root, c, i, req) : PMPI_Bcast(rb, n, t, root, c);
      case ApiOp::kReduce:
        return req ? MPIX_Reduce_init(s_in, rb, n, t, MPI_SUM, root, c, i, req)
                   : PMPI_Reduce(s_in, rb, n, t, MPI_SUM, root, c);
      case ApiOp::kAllreduce:
        return req ? MPIX_Allreduce_init(s_in, rb, n, t, MPI_SUM, c, i, req) : PMPI_Allreduce(s_in, rb, n, t, MPI_SUM, c);
      case ApiOp::kScan:
        return req ? MPIX_Scan_init(s_in, rb, n, t, MPI_SUM, c, i, req) : PMPI_Scan(s_in, rb, n, t, MPI_SUM, c);
      case ApiOp::kExscan:
        return req ? MPIX_Exscan_init(s_in, rb, n, t, MPI_SUM, c, i, req) : PMPI_Exscan(s_in, rb, n, t, MPI_SUM, c);
      case ApiOp::kReduceScatterBlock:
        return req ? MPIX_Reduce_scatter_block_init(s_in, rb, n, t, MPI_SUM, c, i, req)
                   : PMPI_Reduce_scatter_block(s_in, rb, n, t, MPI_SUM, c);
      case ApiOp::kReduceScatter:
        return req ? MPIX_Reduce_scatter_init(s_in, rb, counts_.data(), t, MPI_SUM, c, i, req)
                   : PMPI_Reduce_scatter(s_in, rb, counts_.data(), t, MPI_SUM, c);
      case ApiOp::kAllgather:
        return req ? MPIX_Allgather_init(s_in, n, t, rb, n, t, c, i, req) : PMPI_Allgather(s_in, n, t, rb, n, t, c);
      case ApiOp::kAlltoall:
        return req ? MPIX_Alltoall_init(s_in, n, t, rb, n, t, c, i, req) : PMPI_Alltoall(s_in, n, t, rb, n, t, c);
      case ApiOp::kGather:
        return req ? MPIX_Gather_init(s_in, n, t, rb, n, t, root, c, i, req)
                   : PMPI_Gather(s_in, n, t, rb, n, t, root, c);
      case ApiOp::kScatter:
        return req ? MPIX_Scatter_init(sb, n, t, r_in, n, t, root, c, i, req)
                   : PMPI_Scatter(sb, n, t, r_in, n, t, root, c);
      case ApiOp::kGatherv:
        return req ? MPIX_Gatherv_init(s_in, counts_[r_], t, rb, counts_.data(), displs_.data(), t, root, c, i, req)
                   : PMPI_Gatherv(s_in, counts_[r_], t, rb, counts_.data(), displs_.data(), t, root, c);
      case ApiOp::kScatterv:
        return req ? MPIX_Scatterv_init(sb, counts_.data(), displs_.data(), t, r_in, counts_[r_], t, root, c, i, req)
                   : PMPI_Scatterv(sb, counts_.data(), displs_.data(), t, r_in, counts_[r_], t, root, c);
      case ApiOp::kAllgatherv:
        return req ? MPIX_Allgatherv_init(s_in, counts_[r_], t, rb, counts_.data(), displs_.data(), t, c, i, req)
                   : PMPI_Allgatherv(s_in, counts_[r_], t, rb, counts_.data(), displs_.data(), t, c);
      case ApiOp::kAlltoallv:
        return req ? MPIX_Alltoallv_init(s_in, sendcounts_.data(), sdispls_.data(), t, rb, rcounts_.data(),
                                         rdispls_.data(), t, c, i, req)
                   : PMPI_Alltoallv(s_in, sendcounts_.data(), sdispls_.data(), t, rb, rcounts_.data(),
                                    rdispls_.data(), t, c);
      case ApiOp::kAlltoallw: {
        const MPI_Datatype* ts = types_.data();
        return req ? MPIX_Alltoallw_init(s_in, sendcounts_.data(), sbytes_.data(), ts, rb, rcounts_.data(),
                                         rbytes_.data(), ts, c, i, req)
                   : PMPI_Alltoallw(s_in, sendcounts_.data(), sbytes_.data(), ts, rb, rcounts_.data(), rbytes_.data(),
                                    ts, c);
      }
    }
    return MPI_ERR_OTHER;
  }

  ApiOp op_;
  MPI_Comm comm_;
  int count_, root_;
  bool in_place_;
  TypeCase t_;
  int r_ = 0, p_ = 1;
  std::vector<int> counts_, displs_, sendcounts_, sdispls_, rcounts_, rdispls_, sbytes_, rbytes_;
  std::vector<MPI_Datatype> types_;
  Side hier_, ref_;
};

long starts_counted(ApiOp op) {
  return local_count(op, Path::kHier) + local_count(op, Path::kFlat) + local_count(op, Path::kNative);
}

// Init once, then kStarts starts with new data each, each compared with
// Open MPI's blocking call on the same data; "" when all match.
std::string run_case(ApiOp op, MPI_Comm comm, int count, int root, bool in_place, TypeCase t) {
  const std::string what = std::string(api_op_name(op)) + " count " + std::to_string(count) + " root " +
                           std::to_string(root) + (in_place ? " in place" : "");
  Case c(op, comm, count, root, in_place, t);
  MPI_Request req = MPI_REQUEST_NULL;
  c.fill(0);
  if (c.init(&req) != MPI_SUCCESS || req == MPI_REQUEST_NULL) return what + ": init failed";
  const MPI_Request handle = req;
  const std::string algorithm = last_algorithm();
  const long counted = starts_counted(op);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const bool exscan_rank0 = op == ApiOp::kExscan && rank == 0;
  std::string err;
  for (int k = 0; k < kStarts && err.empty(); ++k) {
    c.fill(k + 1);
    if (MPI_Start(&req) != MPI_SUCCESS) err = "start failed";
    // Wait, or a Test loop, by start.
    if (k % 2 == 0) {
      if (MPI_Wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS) err = "wait failed";
    } else {
      int flag = 0;
      while (!flag && err.empty())
        if (MPI_Test(&req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) err = "test failed";
    }
    if (req != handle) err = "the request's handle changed";
    if (c.reference() != MPI_SUCCESS) err = "reference failed";
    // Rank 0's exscan result is undefined.
    if (err.empty() && !exscan_rank0 && c.hier().recv != c.ref().recv) {
      size_t i = 0;
      while (c.hier().recv[i] == c.ref().recv[i]) ++i;
      err = "start " + std::to_string(k) + ": result differs at " + std::to_string(i) + ": " +
            std::to_string(c.hier().recv[i]) + ", MPI's " + std::to_string(c.ref().recv[i]);
    }
    if (err.empty() && c.hier().send != c.ref().send) err = "start " + std::to_string(k) + ": send buffer changed";
  }
  if (err.empty() && starts_counted(op) != counted + kStarts) err = "starts not counted";
  if (MPI_Request_free(&req) != MPI_SUCCESS || req != MPI_REQUEST_NULL) err += " free failed";
  return err.empty() ? "" : what + " (" + algorithm + "): " + err;
}

TEST_F(PersistentTest, EveryOperationStartedManyTimesMatchesMpi) {
  for (const char* mode : {"hier", "flat", "off"}) {
    MPI_Comm comm = comm_with_mode(mode);
    for (int api = 0; api < kNumApiOps; ++api) {
      const ApiOp op = static_cast<ApiOp>(api);
      for (int count : {0, 1, 7, 1001}) {
        if (mode[0] != 'h' && count != 7) continue;
        for (int root = 0; root < (is_rooted(op) ? size_ : 1); ++root) {
          for (bool in_place : {false, true}) {
            if (in_place && !allows_in_place(op)) continue;
            EXPECT_EQ(run_case(op, comm, count, root, in_place, TypeCase{MPI_INT, 1}), "") << mode;
          }
        }
      }
    }
    MPI_Comm_free(&comm);
  }
  EXPECT_EQ(live_persistent(), 0);
  EXPECT_EQ(pinned_handles(), 0);
}

// A communicator of one rank.
TEST_F(PersistentTest, OneRankMatchesMpi) {
  for (int api = 0; api < kNumApiOps; ++api) {
    const ApiOp op = static_cast<ApiOp>(api);
    for (bool in_place : {false, true}) {
      if (in_place && !allows_in_place(op)) continue;
      EXPECT_EQ(run_case(op, MPI_COMM_SELF, 7, 0, in_place, TypeCase{MPI_INT, 1}), "");
    }
  }
}

// Long messages: pipelined schedules of several segments.
TEST_F(PersistentTest, LongMessagesMatchMpi) {
  for (ApiOp op : {ApiOp::kBcast, ApiOp::kReduce, ApiOp::kAllreduce, ApiOp::kAllgather, ApiOp::kAlltoallv,
                   ApiOp::kAlltoallw, ApiOp::kGatherv})
    EXPECT_EQ(run_case(op, MPI_COMM_WORLD, 60000, size_ - 1, false, TypeCase{MPI_INT, 1}), "");
}

// A derived datatype with gaps (a bcast packs it at the root before each
// start and unpacks it after), on every data-movement operation.
TEST_F(PersistentTest, DerivedDatatypeMatchesMpi) {
  MPI_Datatype vec, t;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, 4 * sizeof(int), &t);
  MPI_Type_commit(&t);
  MPI_Type_free(&vec);
  for (ApiOp op : {ApiOp::kBcast, ApiOp::kAllgather, ApiOp::kAlltoall, ApiOp::kGather, ApiOp::kScatter,
                   ApiOp::kGatherv, ApiOp::kScatterv, ApiOp::kAllgatherv, ApiOp::kAlltoallv, ApiOp::kAlltoallw})
    for (int root = 0; root < (is_rooted(op) ? size_ : 1); ++root)
      for (bool in_place : {false, true}) {
        if (in_place && !allows_in_place(op)) continue;
        EXPECT_EQ(run_case(op, MPI_COMM_WORLD, 5, root, in_place, TypeCase{t, 4}), "");
      }
  MPI_Type_free(&t);
}

// MPI_Startall with two collectives and a ring of point-to-point
// persistent requests, started again and again with new data.
TEST_F(PersistentTest, StartallMixesCollectivesAndPointToPoint) {
  const int p = size_, r = rank_;
  const int n = 100;
  std::vector<long> in(n), sum(n), bc(n), to_right(n), from_left(n);
  std::vector<MPI_Request> reqs(4, MPI_REQUEST_NULL);
  ASSERT_EQ(MPIX_Allreduce_init(in.data(), sum.data(), n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]),
            MPI_SUCCESS);
  MPI_Send_init(to_right.data(), n, MPI_LONG, (r + 1) % p, 5, MPI_COMM_WORLD, &reqs[1]);
  ASSERT_EQ(MPIX_Bcast_init(bc.data(), n, MPI_LONG, p - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[2]), MPI_SUCCESS);
  MPI_Recv_init(from_left.data(), n, MPI_LONG, (r + p - 1) % p, 5, MPI_COMM_WORLD, &reqs[3]);
  const std::vector<MPI_Request> handles = reqs;
  for (int k = 0; k < 6; ++k) {
    for (int i = 0; i < n; ++i) {
      in[i] = long(r) * 100 + k * 7 + i;
      bc[i] = r == p - 1 ? 5000L + k * 11 + i : -1;
      to_right[i] = long(r) * 10 + k + i;
      from_left[i] = -1;
    }
    ASSERT_EQ(MPI_Startall(4, reqs.data()), MPI_SUCCESS);
    if (k % 2 == 0) {
      ASSERT_EQ(MPI_Waitall(4, reqs.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
    } else {
      for (int done = 0; done < 4;) {
        int idx = MPI_UNDEFINED;
        ASSERT_EQ(MPI_Waitany(4, reqs.data(), &idx, MPI_STATUS_IGNORE), MPI_SUCCESS);
        if (idx == MPI_UNDEFINED) break;
        ++done;
      }
    }
    EXPECT_EQ(reqs, handles);
    const int left = (r + p - 1) % p;
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(sum[i], 100L * p * (p - 1) / 2 + long(p) * (k * 7 + i)) << k;
      EXPECT_EQ(bc[i], 5000L + k * 11 + i) << k;
      EXPECT_EQ(from_left[i], long(left) * 10 + k + i) << k;
    }
  }
  for (MPI_Request& q : reqs) EXPECT_EQ(MPI_Request_free(&q), MPI_SUCCESS);
  EXPECT_EQ(live_persistent(), 0);
}

// Starting an active request: MPI_ERR_REQUEST through the communicator's
// error handler, and the request goes on as started; once complete it
// starts again, and it is freed while inactive.
TEST_F(PersistentTest, StartingAnActiveRequestIsAnError) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int n = 50000;
  std::vector<int> in(n, rank_ + 1), out(n, 0);
  MPI_Request req;
  ASSERT_EQ(MPIX_Allreduce_init(in.data(), out.data(), n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req), MPI_SUCCESS);
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(MPI_Start(&req), MPI_SUCCESS);
    const int rc = MPI_Start(&req);  // still active (running, or complete but not waited for)
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    EXPECT_EQ(cls, MPI_ERR_REQUEST);
    ASSERT_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(out, std::vector<int>(n, size_ * (size_ + 1) / 2));
  }
  // Complete, then tested again: inactive requests complete at once.
  int flag = 0;
  EXPECT_EQ(MPI_Test(&req, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_TRUE(flag);
  EXPECT_EQ(MPI_Request_free(&req), MPI_SUCCESS);
  EXPECT_EQ(req, MPI_REQUEST_NULL);
  MPI_Comm_free(&comm);
  EXPECT_EQ(live_persistent(), 0);
}

// Freed right after init, the handles stay usable for every start:
// a derived datatype, a user operation and the communicator.  So with the
// requests hiercoll hands to MPI (mode off): Open MPI 4.1's own persistent
// collectives read freed handles, which the library keeps for them.
void sum_ints(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
}
void combine_nothing(void*, void*, int*, MPI_Datatype*) {}

void handles_freed_after_init(const char* mode, int p, int r) {
  MPI_Comm comm = comm_with_mode(mode);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Op op;
  MPI_Op_create(sum_ints, 1, &op);
  const int n = 3000;
  std::vector<int> in(n), out(n), gathered(size_t(2) * p * 7), mine(14);
  MPI_Request reqs[2];
  ASSERT_EQ(MPIX_Allreduce_init(in.data(), out.data(), n, MPI_INT, op, comm, MPI_INFO_NULL, &reqs[0]), MPI_SUCCESS);
  ASSERT_EQ(MPIX_Allgather_init(mine.data(), 7, pair, gathered.data(), 7, pair, comm, MPI_INFO_NULL, &reqs[1]),
            MPI_SUCCESS);
  MPI_Type_free(&pair);
  MPI_Op_free(&op);
  MPI_Comm_free(&comm);
  EXPECT_EQ(pair, MPI_DATATYPE_NULL);
  EXPECT_EQ(op, MPI_OP_NULL);
  EXPECT_EQ(comm, MPI_COMM_NULL);
  // Other handles, apt to take the freed ones' places.
  MPI_Datatype other;
  MPI_Type_contiguous(3, MPI_INT, &other);
  MPI_Type_commit(&other);
  MPI_Op nothing;
  MPI_Op_create(combine_nothing, 1, &nothing);
  for (int k = 0; k < 5; ++k) {
    for (int i = 0; i < n; ++i) in[i] = r * 10 + k + i % 7;
    for (int i = 0; i < 14; ++i) mine[i] = r * 100 + k * 14 + i;
    ASSERT_EQ(MPI_Startall(2, reqs), MPI_SUCCESS);
    ASSERT_EQ(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 10 * p * (p - 1) / 2 + p * (k + i % 7)) << mode << " " << k;
    for (int j = 0; j < p; ++j)
      for (int i = 0; i < 14; ++i) ASSERT_EQ(gathered[j * 14 + i], j * 100 + k * 14 + i) << mode << " " << k;
  }
  EXPECT_GT(pinned_handles(), 0);
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  MPI_Type_free(&other);
  MPI_Op_free(&nothing);
  EXPECT_EQ(pinned_handles(), 0);
  EXPECT_EQ(live_persistent(), 0);
}

TEST_F(PersistentTest, HandlesFreedAfterInitStayUsable) { handles_freed_after_init("hier", size_, rank_); }

TEST_F(PersistentTest, HandlesFreedAfterInitStayUsableWithMpisOwnRequests) {
  handles_freed_after_init("off", size_, rank_);
}

// The decision is made at init: hints set afterwards do not change it
// (here mode flat, then off: the starts still run flat schedules).
TEST_F(PersistentTest, DecisionMadeAtInit) {
  MPI_Comm comm = comm_with_mode("flat");
  const int n = 10;
  std::vector<int> in(n, rank_), out(n);
  MPI_Request req;
  ASSERT_EQ(MPIX_Allreduce_init(in.data(), out.data(), n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req), MPI_SUCCESS);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "hiercoll", "off");
  MPI_Comm_set_info(comm, info);
  MPI_Info_free(&info);
  const long flat = local_count(ApiOp::kAllreduce, Path::kFlat);
  const long native = local_count(ApiOp::kAllreduce, Path::kNative);
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(MPI_Start(&req), MPI_SUCCESS);
    ASSERT_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(out, std::vector<int>(n, size_ * (size_ - 1) / 2));
  }
  EXPECT_EQ(local_count(ApiOp::kAllreduce, Path::kFlat), flat + 3);
  EXPECT_EQ(local_count(ApiOp::kAllreduce, Path::kNative), native);
  MPI_Request_free(&req);
  MPI_Comm_free(&comm);
}

// Persistent calls outstanding together with nonblocking and blocking ones
// on the same communicator, completed in rank-dependent order.
TEST_F(PersistentTest, OutstandingWithNonblockingAndBlockingCalls) {
  const int p = size_, r = rank_, n = 2000;
  std::vector<long> a(n), a_out(n), b(n), b_out(n), blocking(n), blocking_out(n);
  MPI_Request pers;
  ASSERT_EQ(MPIX_Allreduce_init(a.data(), a_out.data(), n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &pers),
            MPI_SUCCESS);
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < n; ++i) a[i] = r + k + i, b[i] = 2L * r + k, blocking[i] = 1;
    MPI_Request reqs[2];
    ASSERT_EQ(MPI_Start(&pers), MPI_SUCCESS);
    reqs[0] = pers;
    ASSERT_EQ(MPI_Iallreduce(b.data(), b_out.data(), n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &reqs[1]), MPI_SUCCESS);
    ASSERT_EQ(MPI_Allreduce(blocking.data(), blocking_out.data(), n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
    if (r % 2) {
      MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
      MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    } else {
      MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    }
    EXPECT_EQ(reqs[0], pers);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(a_out[i], long(p) * (p - 1) / 2 + long(p) * (k + i));
      EXPECT_EQ(b_out[i], long(p) * (p - 1) + long(p) * k);
      EXPECT_EQ(blocking_out[i], p);
    }
  }
  MPI_Request_free(&pers);
  EXPECT_EQ(live_persistent(), 0);
  EXPECT_EQ(live_requests(), 0);
}

}  // namespace
}  // namespace hiercoll::testing
