// MPI_Alltoallw, MPI_Ialltoallw and MPIX_Alltoallw_init through hiercoll's
// schedules, against Open MPI's own (PMPI_Alltoallw) on the same inputs:
// every block with a datatype of its own (ints, contiguous pairs, strided
// pairs with gaps, duplicates, a datatype of size zero), the two ends of a
// block describing its data differently, empty blocks, byte displacements
// in an order of their own, in place, datatypes freed while a call still
// uses them; every path counted under alltoallw; bad arguments refused.
#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <cstring>
#include <string>
#include <vector>

#include "runtime/stats.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

using AlltoallwTest = RankedMpiTest;

// Ways to describe 2n ints: kind 0 MPI_INT (2n), 1 contiguous pairs (n),
// 2 strided pairs, one int of gap after each int (n), 3 a duplicate of
// MPI_INT (2n), or, for an empty block, 5 elements of a datatype of size 0.
class Kinds {
 public:
  Kinds() {
    MPI_Type_contiguous(2, MPI_INT, &pair_);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 4 * sizeof(int), &strided_);
    MPI_Type_free(&vec);
    MPI_Type_dup(MPI_INT, &dup_);
    MPI_Type_contiguous(0, MPI_INT, &empty_);
    for (MPI_Datatype* t : {&pair_, &strided_, &dup_, &empty_}) MPI_Type_commit(t);
  }
  ~Kinds() { free(); }
  // Frees the datatypes (calls that use them keep them alive).
  void free() {
    for (MPI_Datatype* t : {&pair_, &strided_, &dup_, &empty_})
      if (*t != MPI_DATATYPE_NULL) MPI_Type_free(t);
  }
  MPI_Datatype type(int kind, int n) const {
    if (kind == 3 && n == 0) return empty_;
    const MPI_Datatype types[] = {MPI_INT, pair_, strided_, dup_};
    return types[kind];
  }
  static int count(int kind, int n) {
    if (kind == 3 && n == 0) return 5;
    return kind == 1 || kind == 2 ? n : 2 * n;
  }
  static int extent_bytes(int kind, int n) {
    if (kind == 3 && n == 0) return 0;
    return count(kind, n) * int(sizeof(int)) * (kind == 1 ? 2 : kind == 2 ? 4 : 1);
  }

 private:
  MPI_Datatype pair_ = MPI_DATATYPE_NULL, strided_ = MPI_DATATYPE_NULL, dup_ = MPI_DATATYPE_NULL,
               empty_ = MPI_DATATYPE_NULL;
};

// One side of a rank's call: per peer a count, a byte displacement and a
// datatype; the blocks lie in reverse peer order, 8 bytes apart.
struct Side {
  std::vector<int> counts, displs;
  std::vector<MPI_Datatype> types;
  int bytes = 0;
  Side(const Kinds& k, int p, int salt, int (*pairs)(int, int, int), int me, bool sending) {
    counts.resize(p), displs.resize(p), types.resize(p);
    for (int i = 0; i < p; ++i) {
      const int j = p - 1 - i;
      const int n = sending ? pairs(me, j, p) : pairs(j, me, p);
      const int kind = (me + j + salt) % 4;
      counts[j] = Kinds::count(kind, n);
      types[j] = k.type(kind, n);
      displs[j] = bytes;
      bytes += Kinds::extent_bytes(kind, n) + 8;
    }
  }
};

int uneven_pairs(int from, int to, int) { return (from + 2 * to) % 4; }
int symmetric_pairs(int from, int to, int p) { return (from + to) % 4 + (p > 4 ? 1 : 0); }

struct Buffers {
  std::vector<int> send, recv;
};

// How the call is made: blocking, nonblocking (datatypes freed before the
// wait) or persistent (datatypes freed after init, started `starts` times).
enum class Form { kBlocking, kNonblocking, kPersistent };

class Call {
 public:
  Call(int rank, int size, bool in_place)
      : in_place_(in_place), rank_(rank),
        send_(kinds_, size, 0, in_place ? symmetric_pairs : uneven_pairs, rank, true),
        recv_(kinds_, size, in_place ? 0 : 1, in_place ? symmetric_pairs : uneven_pairs, rank, false) {}

  Kinds& kinds() { return kinds_; }
  // Data of start k on this rank.
  Buffers data(int k) const {
    Buffers b{std::vector<int>(send_.bytes / sizeof(int) + 1), std::vector<int>(recv_.bytes / sizeof(int) + 1, -1)};
    for (size_t i = 0; i < b.send.size(); ++i) b.send[i] = rank_ * 100000 + k * 1000 + int(i);
    if (in_place_) b.recv = b.send;
    return b;
  }
  const void* sendbuf(Buffers& b) const { return in_place_ ? MPI_IN_PLACE : b.send.data(); }
  int reference(Buffers& b, MPI_Comm comm) const {
    return PMPI_Alltoallw(sendbuf(b), send_.counts.data(), send_.displs.data(), send_.types.data(), b.recv.data(),
                          recv_.counts.data(), recv_.displs.data(), recv_.types.data(), comm);
  }
  int blocking(Buffers& b, MPI_Comm comm) const {
    return MPI_Alltoallw(sendbuf(b), send_.counts.data(), send_.displs.data(), send_.types.data(), b.recv.data(),
                         recv_.counts.data(), recv_.displs.data(), recv_.types.data(), comm);
  }
  int start(Buffers& b, MPI_Comm comm, MPI_Request* r) const {
    return MPI_Ialltoallw(sendbuf(b), send_.counts.data(), send_.displs.data(), send_.types.data(), b.recv.data(),
                          recv_.counts.data(), recv_.displs.data(), recv_.types.data(), comm, r);
  }
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
  int init(Buffers& b, MPI_Comm comm, MPI_Request* r) const {
    return MPIX_Alltoallw_init(sendbuf(b), send_.counts.data(), send_.displs.data(), send_.types.data(), b.recv.data(),
                               recv_.counts.data(), recv_.displs.data(), recv_.types.data(), comm, MPI_INFO_NULL, r);
  }
#endif

 private:
  Kinds kinds_;
  bool in_place_;
  int rank_;
  Side send_, recv_;
};

long counted(Path path) { return local_count(ApiOp::kAlltoallw, path); }
long served() { return counted(Path::kHier) + counted(Path::kFlat); }

// Runs one form `starts` times with new data each time; "" when every
// result equals Open MPI's and every call was hiercoll's, else the first
// difference (every rank makes every call either way, so that a
// difference on one rank fails the test instead of hanging it).
std::string check(MPI_Comm comm, bool in_place, Form form, int starts) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Call call(rank, size, in_place);
  const std::string what = std::string(form == Form::kBlocking ? "blocking" : form == Form::kNonblocking ? "nonblocking"
                                                                                                        : "persistent") +
                           (in_place ? " in place" : "");
  // Open MPI's results first: the datatypes are freed on the way.
  std::vector<Buffers> refs;
  for (int k = 0; k < starts; ++k) {
    refs.push_back(call.data(k));
    if (call.reference(refs.back(), comm) != MPI_SUCCESS) return what + ": PMPI_Alltoallw failed";
  }
  const long before = served(), native_before = counted(Path::kNative);
  Buffers mine = call.data(0);
  MPI_Request request = MPI_REQUEST_NULL;
  if (form == Form::kPersistent) {
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
    if (call.init(mine, comm, &request) != MPI_SUCCESS) return what + ": init failed";
    call.kinds().free();  // MPI lets a program free them after init
#else
    return "";
#endif
  }
  std::string why;
  for (int k = 0; k < starts; ++k) {
    const Buffers& ref = refs[size_t(k)];
    const Buffers fresh = call.data(k);
    mine.send = fresh.send, mine.recv = fresh.recv;  // new data at the same addresses
    int rc = MPI_SUCCESS;
    if (form == Form::kBlocking) {
      rc = call.blocking(mine, comm);
    } else {
      if (form == Form::kNonblocking) {
        rc = call.start(mine, comm, &request);
        if (k == starts - 1) call.kinds().free();  // freed while the call still uses them
      } else {
        rc = MPI_Start(&request);
      }
      if (rc == MPI_SUCCESS) rc = MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    if (!why.empty()) continue;
    if (rc != MPI_SUCCESS) why = what + ": returned " + std::to_string(rc);
    else if (!in_place && mine.send != fresh.send) why = what + ": wrote the send buffer";
    if (why.empty() && mine.recv != ref.recv) {
      size_t i = 0;
      while (mine.recv[i] == ref.recv[i]) ++i;
      why = what + " start " + std::to_string(k) + ": int " + std::to_string(i) + " is " +
            std::to_string(mine.recv[i]) + ", Open MPI's " + std::to_string(ref.recv[i]);
    }
  }
  if (form == Form::kPersistent) MPI_Request_free(&request);
  if (!why.empty()) return why;
  if (served() - before != starts) return what + ": hiercoll served " + std::to_string(served() - before) + " calls";
  if (counted(Path::kNative) != native_before) return what + ": a call went to MPI";
  return "";
}

TEST_F(AlltoallwTest, EveryFormMatchesMpi) {
  const char* const modes[] = {"hier", "flat"};
  for (const char* mode : modes) {
    MPI_Comm comm = world_with_hints({{"hiercoll", mode}});
    for (bool in_place : {false, true})
      for (Form form : {Form::kBlocking, Form::kNonblocking, Form::kPersistent})
        EXPECT_EQ(check(comm, in_place, form, 3), "") << mode;
    MPI_Comm_free(&comm);
  }
}

// The node-aware compositions of alltoallv run alltoallw too (their count
// exchange is in bytes), and each of alltoallv's flat algorithms.
TEST_F(AlltoallwTest, AlltoallvsCompositionsAndAlgorithmsServeIt) {
  for (const char* composition : {"alltoallv", "alltoallv_leaders"}) {
    MPI_Comm comm = world_with_hints({{"hiercoll_alltoallv_composition", composition}});
    for (bool in_place : {false, true}) EXPECT_EQ(check(comm, in_place, Form::kBlocking, 2), "") << composition;
    MPI_Comm_free(&comm);
  }
  for (const char* algorithm : {"pairwise", "scattered"}) {
    MPI_Comm comm = world_with_hints({{"hiercoll_alltoallv_algorithm", algorithm}});
    EXPECT_EQ(check(comm, false, Form::kBlocking, 1), "") << algorithm;
    EXPECT_EQ(check(comm, true, Form::kNonblocking, 1), "") << algorithm;
    MPI_Comm_free(&comm);
  }
}

TEST_F(AlltoallwTest, BadArgumentsAreRefused) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int p = size_;
  std::vector<int> counts(p, 1), displs(p, 0), buf(p, 0), out(p, 0);
  for (int j = 0; j < p; ++j) displs[j] = j * int(sizeof(int));
  std::vector<MPI_Datatype> types(p, MPI_INT);
  std::vector<int> negative = counts;
  negative[p - 1] = -1;
  EXPECT_EQ(MPI_Alltoallw(buf.data(), negative.data(), displs.data(), types.data(), out.data(), counts.data(),
                          displs.data(), types.data(), comm),
            MPI_ERR_COUNT);
  std::vector<MPI_Datatype> null_type = types;
  null_type[0] = MPI_DATATYPE_NULL;
  EXPECT_EQ(MPI_Alltoallw(buf.data(), counts.data(), displs.data(), types.data(), out.data(), counts.data(),
                          displs.data(), null_type.data(), comm),
            MPI_ERR_TYPE);
  EXPECT_EQ(MPI_Alltoallw(buf.data(), counts.data(), displs.data(), nullptr, out.data(), counts.data(),
                          displs.data(), types.data(), comm),
            MPI_ERR_ARG);
  MPI_Request r;
  EXPECT_EQ(MPI_Ialltoallw(buf.data(), negative.data(), displs.data(), types.data(), out.data(), counts.data(),
                           displs.data(), types.data(), comm, &r),
            MPI_ERR_COUNT);
  MPI_Comm_free(&comm);
}

}  // namespace
}  // namespace hiercoll::testing
