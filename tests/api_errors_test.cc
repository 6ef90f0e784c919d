// Bad input on every emulated layout: hiercoll reports the MPI error class on
// every rank that can see the mistake, through the communicator's error
// handler, as Open MPI 4.1 does (each case runs through hiercoll, MPI_*, and
// through Open MPI, PMPI_*), and never crashes or hangs.
#include <mpi.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "call_by_op/call_by_op.h"
#include "tests/support/mpi_test.h"
#include "tests/support/sanitize_mode.h"

namespace hiercoll::testing {
namespace {

int error_class(int rc) {
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  return cls;
}

using Args = CallArgs;  // runtime/call_args.h

// A collective called through hiercoll (native = false) or Open MPI.
struct Collective {
  const char* name;
  ApiOp api;
  int call(const Args& a, bool native) const {
    return call_by_op(api, native ? Via::kPmpi : Via::kMpi, a);
  }
};
const Collective kBcast{"bcast", ApiOp::kBcast};
const Collective kReduce{"reduce", ApiOp::kReduce};
const Collective kAllreduce{"allreduce", ApiOp::kAllreduce};
const Collective kScan{"scan", ApiOp::kScan};
const Collective kExscan{"exscan", ApiOp::kExscan};
const Collective kReduceScatterBlock{"reduce_scatter_block", ApiOp::kReduceScatterBlock};
const Collective kReduceScatter{"reduce_scatter", ApiOp::kReduceScatter};
const Collective kAllgather{"allgather", ApiOp::kAllgather};
const Collective kAlltoall{"alltoall", ApiOp::kAlltoall};
const Collective kGather{"gather", ApiOp::kGather};
const Collective kScatter{"scatter", ApiOp::kScatter};

struct Named {
  std::string name;
  MPI_Datatype type;
};
#define NAMED(t) Named{#t, t}

// Every predefined datatype Open MPI offers (C, C++, Fortran, fixed-size,
// multi-language, pairs, parameterised Fortran 90), written out here rather
// than taken from runtime/op_types.cc, so that the test checks that table.
std::vector<Named> predefined_types() {
  std::vector<Named> types = {
      NAMED(MPI_CHAR), NAMED(MPI_SIGNED_CHAR), NAMED(MPI_UNSIGNED_CHAR), NAMED(MPI_WCHAR), NAMED(MPI_BYTE),
      NAMED(MPI_PACKED), NAMED(MPI_SHORT), NAMED(MPI_UNSIGNED_SHORT), NAMED(MPI_INT), NAMED(MPI_UNSIGNED),
      NAMED(MPI_LONG), NAMED(MPI_UNSIGNED_LONG), NAMED(MPI_LONG_LONG_INT), NAMED(MPI_LONG_LONG),
      NAMED(MPI_UNSIGNED_LONG_LONG), NAMED(MPI_FLOAT), NAMED(MPI_DOUBLE), NAMED(MPI_LONG_DOUBLE),
      NAMED(MPI_INT8_T), NAMED(MPI_INT16_T), NAMED(MPI_INT32_T), NAMED(MPI_INT64_T), NAMED(MPI_UINT8_T),
      NAMED(MPI_UINT16_T), NAMED(MPI_UINT32_T), NAMED(MPI_UINT64_T), NAMED(MPI_C_BOOL), NAMED(MPI_C_COMPLEX),
      NAMED(MPI_C_FLOAT_COMPLEX), NAMED(MPI_C_DOUBLE_COMPLEX), NAMED(MPI_C_LONG_DOUBLE_COMPLEX),
      NAMED(MPI_CXX_BOOL), NAMED(MPI_CXX_FLOAT_COMPLEX), NAMED(MPI_CXX_DOUBLE_COMPLEX),
      NAMED(MPI_CXX_LONG_DOUBLE_COMPLEX), NAMED(MPI_AINT), NAMED(MPI_OFFSET), NAMED(MPI_COUNT),
      NAMED(MPI_CHARACTER), NAMED(MPI_LOGICAL), NAMED(MPI_INTEGER), NAMED(MPI_REAL), NAMED(MPI_DOUBLE_PRECISION),
      NAMED(MPI_COMPLEX), NAMED(MPI_DOUBLE_COMPLEX), NAMED(MPI_FLOAT_INT), NAMED(MPI_DOUBLE_INT),
      NAMED(MPI_LONG_INT), NAMED(MPI_2INT), NAMED(MPI_SHORT_INT), NAMED(MPI_LONG_DOUBLE_INT), NAMED(MPI_2REAL),
      NAMED(MPI_2DOUBLE_PRECISION), NAMED(MPI_2INTEGER), NAMED(MPI_2COMPLEX), NAMED(MPI_2DOUBLE_COMPLEX),
  // The optional Fortran types, where this Open MPI has them.
#ifdef MPI_LOGICAL1
      NAMED(MPI_LOGICAL1),
#endif
#ifdef MPI_LOGICAL2
      NAMED(MPI_LOGICAL2),
#endif
#ifdef MPI_LOGICAL4
      NAMED(MPI_LOGICAL4),
#endif
#ifdef MPI_LOGICAL8
      NAMED(MPI_LOGICAL8),
#endif
#ifdef MPI_INTEGER1
      NAMED(MPI_INTEGER1),
#endif
#ifdef MPI_INTEGER2
      NAMED(MPI_INTEGER2),
#endif
#ifdef MPI_INTEGER4
      NAMED(MPI_INTEGER4),
#endif
#ifdef MPI_INTEGER8
      NAMED(MPI_INTEGER8),
#endif
#ifdef MPI_INTEGER16
      NAMED(MPI_INTEGER16),
#endif
#ifdef MPI_REAL2
      NAMED(MPI_REAL2),
#endif
#ifdef MPI_REAL4
      NAMED(MPI_REAL4),
#endif
#ifdef MPI_REAL8
      NAMED(MPI_REAL8),
#endif
#ifdef MPI_REAL16
      NAMED(MPI_REAL16),
#endif
#ifdef MPI_COMPLEX4
      NAMED(MPI_COMPLEX4),
#endif
#ifdef MPI_COMPLEX8
      NAMED(MPI_COMPLEX8),
#endif
#ifdef MPI_COMPLEX16
      NAMED(MPI_COMPLEX16),
#endif
#ifdef MPI_COMPLEX32
      NAMED(MPI_COMPLEX32),
#endif
  };
  // Parameterised Fortran 90 types; a precision the compiler lacks gives an
  // error or MPI_DATATYPE_NULL (those errors go to MPI_COMM_WORLD).
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int digits : {3, 6, 15, 30}) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (MPI_Type_create_f90_real(digits, MPI_UNDEFINED, &t) == MPI_SUCCESS)
      types.push_back({"f90 real(" + std::to_string(digits) + ")", t});
    if (MPI_Type_create_f90_complex(digits, MPI_UNDEFINED, &t) == MPI_SUCCESS)
      types.push_back({"f90 complex(" + std::to_string(digits) + ")", t});
  }
  for (int range : {2, 4, 9, 18, 38}) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (MPI_Type_create_f90_integer(range, &t) == MPI_SUCCESS)
      types.push_back({"f90 integer(" + std::to_string(range) + ")", t});
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  types.erase(std::remove_if(types.begin(), types.end(), [](const Named& t) { return t.type == MPI_DATATYPE_NULL; }),
              types.end());
  return types;
}

struct NamedOp {
  const char* name;
  MPI_Op op;
};
const NamedOp kPredefinedOps[] = {
    {"MPI_MAX", MPI_MAX},       {"MPI_MIN", MPI_MIN},       {"MPI_SUM", MPI_SUM},       {"MPI_PROD", MPI_PROD},
    {"MPI_LAND", MPI_LAND},     {"MPI_LOR", MPI_LOR},       {"MPI_LXOR", MPI_LXOR},     {"MPI_BAND", MPI_BAND},
    {"MPI_BOR", MPI_BOR},       {"MPI_BXOR", MPI_BXOR},     {"MPI_MINLOC", MPI_MINLOC}, {"MPI_MAXLOC", MPI_MAXLOC},
    {"MPI_REPLACE", MPI_REPLACE}, {"MPI_NO_OP", MPI_NO_OP},
};

// A user operation that is never called (the calls it serves are refused).
void never_called(void*, void*, int*, MPI_Datatype*) {}

class ApiErrors : public MpiTest {
 protected:
  void SetUp() override {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  }
  void TearDown() override {
    MPI_Comm_free(&comm_);
    MpiTest::TearDown();
  }
  // "" when hiercoll and Open MPI give the same error class; else both.
  static std::string same_class(const Collective& c, const Args& a) {
    const int ours = error_class(c.call(a, false)), theirs = error_class(c.call(a, true));
    if (ours == theirs) return "";
    return std::string(c.name) + ": class " + std::to_string(ours) + ", Open MPI's " + std::to_string(theirs);
  }
  int rank_ = 0, size_ = 1;
  MPI_Comm comm_ = MPI_COMM_NULL;
};

TEST_F(ApiErrors, NegativeCount) {
  int buf[2] = {0, 0};
  EXPECT_EQ(error_class(MPI_Bcast(buf, -1, MPI_INT, 0, comm_)), MPI_ERR_COUNT);
  EXPECT_EQ(error_class(MPI_Allreduce(buf, buf + 1, -3, MPI_INT, MPI_SUM, comm_)), MPI_ERR_COUNT);
  EXPECT_EQ(error_class(MPI_Allgather(buf, -1, MPI_INT, buf, 1, MPI_INT, comm_)), MPI_ERR_COUNT);
}

TEST_F(ApiErrors, InvalidRoot) {
  int buf = 0;
  EXPECT_EQ(error_class(MPI_Bcast(&buf, 1, MPI_INT, size_, comm_)), MPI_ERR_ROOT);
  EXPECT_EQ(error_class(MPI_Reduce(&buf, &buf, 1, MPI_INT, MPI_SUM, -1, comm_)), MPI_ERR_ROOT);
  std::vector<int> all(size_);
  EXPECT_EQ(error_class(MPI_Gather(&buf, 1, MPI_INT, all.data(), 1, MPI_INT, size_ + 3, comm_)), MPI_ERR_ROOT);
}

// The v-variants: a bad root, a negative count in any array or as the own
// count, a null array where it is significant; every rank sees each.
TEST_F(ApiErrors, VectorVariantsBadArguments) {
  std::vector<int> send(size_, 0), recv(size_, 0), ones(size_, 1), displs(size_), bad(size_, 1);
  for (int r = 0; r < size_; ++r) displs[r] = r;
  bad[size_ - 1] = -1;
  int* s = send.data();
  int* r = recv.data();
  EXPECT_EQ(error_class(MPI_Gatherv(s, 1, MPI_INT, r, ones.data(), displs.data(), MPI_INT, size_, comm_)),
            MPI_ERR_ROOT);
  EXPECT_EQ(error_class(MPI_Scatterv(s, ones.data(), displs.data(), MPI_INT, r, 1, MPI_INT, -1, comm_)),
            MPI_ERR_ROOT);
  EXPECT_EQ(error_class(MPI_Allgatherv(s, -1, MPI_INT, r, ones.data(), displs.data(), MPI_INT, comm_)),
            MPI_ERR_COUNT);
  EXPECT_EQ(error_class(MPI_Allgatherv(s, 1, MPI_INT, r, bad.data(), displs.data(), MPI_INT, comm_)),
            MPI_ERR_COUNT);
  EXPECT_EQ(error_class(MPI_Alltoallv(s, bad.data(), displs.data(), MPI_INT, r, ones.data(), displs.data(), MPI_INT,
                                      comm_)),
            MPI_ERR_COUNT);
  EXPECT_EQ(error_class(MPI_Alltoallv(s, ones.data(), displs.data(), MPI_INT, r, nullptr, displs.data(), MPI_INT,
                                      comm_)),
            MPI_ERR_ARG);
  EXPECT_EQ(error_class(MPI_Allgatherv(s, 1, MPI_INT, r, ones.data(), nullptr, MPI_INT, comm_)), MPI_ERR_ARG);
  // And a good call still works after them.
  std::fill(send.begin(), send.end(), rank_);
  EXPECT_EQ(MPI_Allgatherv(s, 1, MPI_INT, r, ones.data(), displs.data(), MPI_INT, comm_), MPI_SUCCESS);
  for (int i = 0; i < size_; ++i) EXPECT_EQ(recv[i], i);
}

TEST_F(ApiErrors, NullBufferWithData) {
  int buf = 0;
  EXPECT_EQ(error_class(MPI_Bcast(nullptr, 4, MPI_INT, 0, comm_)), MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(MPI_Allreduce(&buf, nullptr, 1, MPI_INT, MPI_SUM, comm_)), MPI_ERR_BUFFER);
  // A null buffer with no data is fine.
  EXPECT_EQ(MPI_Bcast(nullptr, 0, MPI_INT, 0, comm_), MPI_SUCCESS);
}

TEST_F(ApiErrors, InvalidDatatypeAndOperation) {
  int a = 1, b = 0;
  EXPECT_EQ(error_class(MPI_Bcast(&a, 1, MPI_DATATYPE_NULL, 0, comm_)), MPI_ERR_TYPE);
  EXPECT_EQ(error_class(MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_OP_NULL, comm_)), MPI_ERR_OP);
  // MINLOC needs a pair type, as MPI itself says.
  EXPECT_EQ(error_class(MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_MINLOC, comm_)), MPI_ERR_OP);
}

TEST_F(ApiErrors, NullAndFreedCommunicator) {
  // Errors on MPI_COMM_NULL go to MPI_COMM_WORLD's handler.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int a = 1;
  EXPECT_EQ(error_class(MPI_Bcast(&a, 1, MPI_INT, 0, MPI_COMM_NULL)), MPI_ERR_COMM);
  EXPECT_EQ(error_class(MPI_Barrier(MPI_COMM_NULL)), MPI_ERR_COMM);
  MPI_Comm c, stale;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  stale = c;
  MPI_Comm_free(&c);
  EXPECT_EQ(c, MPI_COMM_NULL);
  EXPECT_EQ(error_class(MPI_Bcast(&a, 1, MPI_INT, 0, stale)), MPI_ERR_COMM);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

// Input of `count` elements of `extent` bytes that every datatype reads as
// small values: only the two lowest bytes of an element are set (0 or 1,
// then 0..4), so integers are small, logicals are 0 or 1 in their first
// byte, and floating-point values are subnormal, whose sums are exact in any
// order.  Pairs get their value so; their index is 0.
std::vector<unsigned char> small_values(int rank, int count, MPI_Aint extent, size_t bytes) {
  std::vector<unsigned char> v(bytes, 0);
  for (int i = 0; i < count; ++i) {
    v[i * extent] = static_cast<unsigned char>((rank + i) % 2);
    if (extent > 1) v[i * extent + 1] = static_cast<unsigned char>((rank * 3 + i) % 5);
  }
  return v;
}

// Every predefined operation on every predefined datatype (and on a
// derived one, and on MPI_DATATYPE_NULL) in reduce, allreduce and scan:
// hiercoll refuses exactly what Open MPI refuses, on every rank, with its
// class, and where both succeed the results are the same bytes.
TEST_F(ApiErrors, PredefinedOperationOnEveryPredefinedTypeAsOpenMpi) {
  std::vector<Named> types = predefined_types();
  MPI_Datatype dup_int, pair_of_doubles;
  MPI_Type_dup(MPI_INT, &dup_int);
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair_of_doubles);
  MPI_Type_commit(&pair_of_doubles);
  types.push_back({"dup of MPI_INT", dup_int});
  types.push_back({"contiguous 2 MPI_DOUBLE", pair_of_doubles});
  types.push_back(NAMED(MPI_DATATYPE_NULL));

  const int count = 3, root = size_ - 1;
  const size_t bytes = count * 64;  // the largest extent is 32
  long successes = 0;
  for (const Named& t : types) {
    MPI_Aint lb = 0, extent = 0;
    if (t.type != MPI_DATATYPE_NULL) MPI_Type_get_extent(t.type, &lb, &extent);
    ASSERT_LE(extent * count, MPI_Aint(bytes)) << t.name;
    const std::vector<unsigned char> in = small_values(rank_, count, extent, bytes);
    for (const NamedOp& op : kPredefinedOps)
      for (const Collective* c : {&kReduce, &kAllreduce, &kScan}) {
        std::vector<unsigned char> ours(bytes, 0), theirs(bytes, 0);
        Args a;
        a.sendbuf = in.data();
        a.recvcount = count;
        a.recvtype = t.type;
        a.mpi_op = op.op;
        a.root = root;
        a.comm = comm_;
        a.recvbuf = ours.data();
        const int our_class = error_class(c->call(a, false));
        a.recvbuf = theirs.data();
        const int their_class = error_class(c->call(a, true));
        EXPECT_EQ(our_class, their_class) << c->name << " " << op.name << " on " << t.name;
        const bool has_result = c != &kReduce || rank_ == root;
        if (our_class == MPI_SUCCESS && their_class == MPI_SUCCESS && has_result) {
          EXPECT_TRUE(ours == theirs) << c->name << " " << op.name << " on " << t.name << ": results differ";
          ++successes;
        }
      }
  }
  EXPECT_GT(successes, 300);  // the sweep ran real reductions, not only refusals
  MPI_Type_free(&dup_int);
  MPI_Type_free(&pair_of_doubles);
}

// A derived datatype that was never committed is MPI_ERR_TYPE in every
// collective, on every rank, with data or without.  Where Open MPI checks it
// the class is compared with Open MPI's; where it does not (the receive type
// of allgather, both types of scatter) Open MPI crashes in its datatype
// engine, so the class is checked alone.
TEST_F(ApiErrors, UncommittedDatatypeIsTypeErrorOnEveryRank) {
  MPI_Datatype u;
  MPI_Type_vector(2, 1, 2, MPI_INT, &u);  // with holes, as such types mostly are
  MPI_Op user_op;  // predefined operations refuse derived types first
  MPI_Op_create(never_called, 1, &user_op);
  std::vector<int> send(1000, 1), recv(1000, 0), counts(size_);
  struct Case {
    const Collective* c;
    MPI_Datatype sendtype, recvtype;
    bool open_mpi_checks;
  };
  const Case cases[] = {
      {&kBcast, u, u, true},           {&kReduce, u, u, true},
      {&kAllreduce, u, u, true},       {&kScan, u, u, true},
      {&kExscan, u, u, true},          {&kReduceScatterBlock, u, u, true},
      {&kReduceScatter, u, u, true},   {&kAllgather, u, MPI_INT, true},
      {&kAllgather, MPI_INT, u, false}, {&kAlltoall, u, MPI_INT, true},
      {&kAlltoall, MPI_INT, u, true},  {&kGather, u, MPI_INT, true},
      {&kScatter, u, u, false},        {&kScatter, MPI_INT, u, false},
  };
  for (int count : {0, 2}) {
    std::fill(counts.begin(), counts.end(), count);
    for (const Case& k : cases) {
      Args a{send.data(), count, k.sendtype, recv.data(), count, k.recvtype, counts.data(), user_op, 0, comm_};
      const std::string what = std::string(k.c->name) + " count " + std::to_string(count);
      EXPECT_EQ(error_class(k.c->call(a, false)), MPI_ERR_TYPE) << what;
      if (k.open_mpi_checks) {
        EXPECT_EQ(same_class(*k.c, a), "") << what;
      }
    }
  }
  MPI_Op_free(&user_op);
  MPI_Type_free(&u);
}

// MPI_IN_PLACE where MPI does not allow it, and send and receive buffers
// that are the same without MPI_IN_PLACE, where Open MPI refuses them: its
// classes (MPI_ERR_BUFFER in allreduce, MPI_ERR_ARG elsewhere).  Cases whose
// mistake only some ranks can see pair it with one the others see, or run
// on a one-rank communicator, so that no rank waits for a refused one.
TEST_F(ApiErrors, MisplacedInPlaceAndAliasedBuffersAsOpenMpi) {
  // Open MPI raises allreduce's buffer errors on MPI_COMM_WORLD.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::vector<int> send(1000, 1), recv(1000, 0), counts(size_);
  void* const in_place = MPI_IN_PLACE;
  const bool root = rank_ == 0;
  for (int count : {0, 3}) {
    std::fill(counts.begin(), counts.end(), count);
    const Args base{send.data(), count, MPI_INT, recv.data(), count, MPI_INT, counts.data(), MPI_SUM, 0, comm_};
    const std::string what = " count " + std::to_string(count);
    auto with = [&](const void* s, void* r) {
      Args a = base;
      a.sendbuf = s;
      a.recvbuf = r;
      return a;
    };
    // As the receive buffer (or bcast's only buffer), on every rank.
    EXPECT_EQ(error_class(kAllreduce.call(with(send.data(), in_place), false)), MPI_ERR_BUFFER) << what;
    for (const Collective* c : {&kBcast, &kScan, &kExscan, &kReduceScatterBlock, &kReduceScatter, &kAllgather,
                                &kAlltoall})
      EXPECT_EQ(error_class(c->call(with(send.data(), in_place), false)), MPI_ERR_ARG) << c->name << what;
    for (const Collective* c : {&kAllreduce, &kBcast, &kScan, &kReduceScatterBlock, &kReduceScatter, &kAllgather,
                                &kAlltoall})
      EXPECT_EQ(same_class(*c, with(send.data(), in_place)), "") << what;  // Open MPI crashes in exscan
    // Reduce and gather: at the root as the receive buffer, elsewhere as the
    // send buffer; scatter: at the root as the send buffer, elsewhere as the
    // receive buffer.
    const Args rooted = root ? with(send.data(), in_place) : with(in_place, recv.data());
    const Args scatter = root ? with(in_place, recv.data()) : with(send.data(), in_place);
    EXPECT_EQ(error_class(kReduce.call(rooted, false)), MPI_ERR_ARG) << what;
    EXPECT_EQ(error_class(kGather.call(rooted, false)), MPI_ERR_ARG) << what;
    EXPECT_EQ(error_class(kScatter.call(scatter, false)), MPI_ERR_ARG) << what;
    EXPECT_EQ(same_class(kReduce, rooted), "") << what;
    EXPECT_EQ(same_class(kGather, rooted), "") << what;
    EXPECT_EQ(same_class(kScatter, scatter), "") << what;
  }
  // The same buffer on both sides: allreduce refuses it for more than one
  // element, reduce at the root for any (on one rank: only the root sees it).
  const Args aliased{recv.data(), 3, MPI_INT, recv.data(), 3, MPI_INT, nullptr, MPI_SUM, 0, comm_};
  EXPECT_EQ(error_class(kAllreduce.call(aliased, false)), MPI_ERR_BUFFER);
  EXPECT_EQ(same_class(kAllreduce, aliased), "");
  MPI_Comm self;
  MPI_Comm_dup(MPI_COMM_SELF, &self);
  MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
  Args aliased_at_root = aliased;
  aliased_at_root.comm = self;
  EXPECT_EQ(error_class(kReduce.call(aliased_at_root, false)), MPI_ERR_ARG);
  EXPECT_EQ(same_class(kReduce, aliased_at_root), "");
  MPI_Comm_free(&self);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

// A mistake only the root can see, on a communicator's first call: the root
// refuses it, and the others (whose part of a one-element reduce does not
// wait for the root) return instead of waiting for it in the first call's
// collective set-up.
TEST_F(ApiErrors, ErrorOnlyTheRootSeesOnAFreshCommunicator) {
  MPI_Comm fresh;
  MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
  MPI_Comm_set_errhandler(fresh, MPI_ERRORS_RETURN);
  int x = rank_;
  void* const in_place = MPI_IN_PLACE;
  const int rc = rank_ == 0 ? MPI_Reduce(&x, in_place, 1, MPI_INT, MPI_SUM, 0, fresh)
                            : MPI_Reduce(&x, nullptr, 1, MPI_INT, MPI_SUM, 0, fresh);
  EXPECT_EQ(error_class(rc), rank_ == 0 ? MPI_ERR_ARG : MPI_SUCCESS);
  MPI_Comm_free(&fresh);
}

// An error only the root can see while laying out the message: its
// datatype must be packed, and the root's address space is limited so the
// packed copy cannot be allocated (MPI_ERR_NO_MEM).  Every rank returns that
// class instead of the others waiting for the root; the next bcast works.
// (Not under AddressSanitizer, which reserves terabytes of address space.)
TEST_F(ApiErrors, OutOfMemoryOnlyAtTheRootReachesEveryRank) {
  if (sanitize_mode()) GTEST_SKIP() << "address space limits and ASan do not mix";
  const int n = 32 << 20;  // bytes of the message: above run.cc's kAgreeBytes
  const int root = size_ - 1;
  MPI_Datatype every_other;  // n chars, one every two bytes: packed at the root
  MPI_Type_vector(n, 1, 2, MPI_CHAR, &every_other);
  MPI_Type_commit(&every_other);
  std::vector<char> buf(rank_ == root ? 2 * size_t(n) : n, 1);
  ASSERT_EQ(MPI_Bcast(buf.data(), 1, MPI_CHAR, root, comm_), MPI_SUCCESS);  // the communicator's set-up
  rlimit saved{};
  getrlimit(RLIMIT_AS, &saved);
  if (rank_ == root) {
    long pages = 0;  // the address space in use now, plus a little
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    rlimit tight = saved;
    tight.rlim_cur = rlim_t(pages) * sysconf(_SC_PAGESIZE) + (8 << 20);
    ASSERT_EQ(setrlimit(RLIMIT_AS, &tight), 0);
  }
  const int rc = rank_ == root ? MPI_Bcast(buf.data(), 1, every_other, root, comm_)
                               : MPI_Bcast(buf.data(), n, MPI_CHAR, root, comm_);
  if (rank_ == root) setrlimit(RLIMIT_AS, &saved);
  EXPECT_EQ(error_class(rc), MPI_ERR_NO_MEM);
  const int again = rank_ == root ? MPI_Bcast(buf.data(), 1, every_other, root, comm_)
                                  : MPI_Bcast(buf.data(), n, MPI_CHAR, root, comm_);
  EXPECT_EQ(again, MPI_SUCCESS);
  MPI_Type_free(&every_other);
}

// Where Open MPI accepts the same buffer on both sides of a reduction
// (allreduce of one element, scan, exscan, reduce_scatter_block), the
// result is the in-place one: sums of rank + 1 in closed form.
TEST_F(ApiErrors, AliasedBuffersAcceptedByOpenMpiActInPlace) {
  const int mine = rank_ + 1;
  const int below = rank_ * (rank_ + 1) / 2;  // 1 + ... + rank
  std::vector<int> v(1, mine);
  EXPECT_EQ(MPI_Allreduce(v.data(), v.data(), 1, MPI_INT, MPI_SUM, comm_), MPI_SUCCESS);
  EXPECT_EQ(v[0], size_ * (size_ + 1) / 2);
  v.assign(3, mine);
  EXPECT_EQ(MPI_Scan(v.data(), v.data(), 3, MPI_INT, MPI_SUM, comm_), MPI_SUCCESS);
  EXPECT_EQ(v, std::vector<int>(3, below + mine));
  v.assign(3, mine);
  EXPECT_EQ(MPI_Exscan(v.data(), v.data(), 3, MPI_INT, MPI_SUM, comm_), MPI_SUCCESS);
  if (rank_ > 0) {
    EXPECT_EQ(v, std::vector<int>(3, below));
  }
  v.assign(2 * size_, mine);
  EXPECT_EQ(MPI_Reduce_scatter_block(v.data(), v.data(), 2, MPI_INT, MPI_SUM, comm_), MPI_SUCCESS);
  EXPECT_EQ(v[0], size_ * (size_ + 1) / 2);
  EXPECT_EQ(v[1], size_ * (size_ + 1) / 2);
}

// What `run` writes to stderr (file descriptor 2).
std::string stderr_of(const std::function<void()>& run) {
  std::fflush(stderr);
  FILE* capture = std::tmpfile();
  const int saved = dup(2);
  dup2(fileno(capture), 2);
  run();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text;
  std::rewind(capture);
  for (int ch; (ch = std::fgetc(capture)) != EOF;) text += static_cast<char>(ch);
  std::fclose(capture);
  return text;
}

// An error handler that neither aborts nor prints.
void keep_going(MPI_Comm*, int*, ...) {}

// With MPI_ERRORS_RETURN the caller gets the code and nothing is printed,
// as with Open MPI; under a handler that goes on, the line names the call
// and the reason.  (Each function and reason is printed once per process,
// so the two halves use calls no other test here refuses that way.)
TEST_F(ApiErrors, SilentUnderErrorsReturnOtherwiseSaysWhy) {
  std::vector<int> all(size_), mine(1);
  const std::string returned = stderr_of([&] {
    EXPECT_EQ(error_class(MPI_Exscan(mine.data(), all.data(), -2, MPI_INT, MPI_SUM, comm_)), MPI_ERR_COUNT);
  });
  EXPECT_EQ(returned, "");

  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(keep_going, &handler);
  MPI_Comm_set_errhandler(comm_, handler);
  const std::string said = stderr_of([&] {
    EXPECT_EQ(error_class(MPI_Scatter(all.data(), 1, MPI_INT, mine.data(), 1, MPI_INT, -4, comm_)), MPI_ERR_ROOT);
  });
  MPI_Errhandler_free(&handler);
  EXPECT_NE(said.find("MPI_Scatter"), std::string::npos) << said;
  EXPECT_NE(said.find("invalid root"), std::string::npos) << said;
}

}  // namespace
}  // namespace hiercoll::testing
