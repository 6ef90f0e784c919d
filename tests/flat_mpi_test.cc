// Every registered flat algorithm, forced through a communicator's info
// hints, against the MPI library's own collective on the same data: every
// data case, counts 0, 1, 7, 1000 and one above 100000, every root, in place
// and not.  Runs on every emulated layout.
#include <mpi.h>

#include <string>
#include <vector>

#include "flat/registry.h"
#include "tests/support/algorithm_params.h"
#include "hier/stats.h"
#include "tests/support/mpi_check.h"
#include "tests/support/mpi_test.h"

namespace hiercoll::testing {
namespace {

std::vector<ApiOp> api_ops_of(Op op) {
  switch (op) {
    case Op::kBcast: return {ApiOp::kBcast};
    case Op::kReduce: return {ApiOp::kReduce};
    case Op::kAllreduce: return {ApiOp::kAllreduce};
    case Op::kAllgather: return {ApiOp::kAllgather};
    case Op::kReduceScatter: return {ApiOp::kReduceScatterBlock, ApiOp::kReduceScatter};
    case Op::kAlltoall: return {ApiOp::kAlltoall};
    case Op::kScan: return {ApiOp::kScan};
    case Op::kExscan: return {ApiOp::kExscan};
    case Op::kBarrier: return {ApiOp::kBarrier};
    case Op::kGather: return {ApiOp::kGather};
    case Op::kScatter: return {ApiOp::kScatter};
  }
  return {};
}

class FlatMpi : public MpiTest, public ::testing::WithParamInterface<const Algorithm*> {
 protected:
  // A duplicate of MPI_COMM_WORLD on which hiercoll runs only this algorithm.
  MPI_Comm forced_comm() {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "hiercoll", "flat");
    const std::string key = std::string("hiercoll_") + op_name(GetParam()->op) + "_algorithm";
    MPI_Info_set(info, key.c_str(), GetParam()->name);
    MPI_Comm comm;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    return comm;
  }
  // Runs a case; the forced algorithm must have run unless it does not fit
  // (then the fallback is counted).
  void check(const MpiCase& c, MPI_Comm comm) {
    const long fallbacks = local_fallbacks(c.api);
    EXPECT_EQ(compare_with_native(c, comm), "");
    const std::string ran = last_algorithm();
    if (ran != "none" && local_fallbacks(c.api) == fallbacks) {
      EXPECT_EQ(ran, GetParam()->name) << c.describe();
      ++forced_runs_;
    }
  }
  int forced_runs_ = 0;
};

TEST_P(FlatMpi, MatchesMpi) {
  MPI_Comm comm = forced_comm();
  int size;
  MPI_Comm_size(comm, &size);
  const Algorithm& a = *GetParam();
  for (ApiOp api : api_ops_of(a.op)) {
    const bool barrier = api == ApiOp::kBarrier;
    for (const DataCase& dc : data_cases()) {
      for (int count : {0, 1, 7, 1000}) {
        for (int root = 0; root < (is_rooted(api) ? size : 1); ++root) {
          for (int in_place = 0; in_place < (allows_in_place(api) ? 2 : 1); ++in_place) {
            MpiCase c{api, &dc, count, root, in_place == 1};
            check(c, comm);
          }
        }
      }
      if (barrier) break;
    }
    if (!barrier) check(MpiCase{api, &data_case("int_sum"), 100003, size - 1, false}, comm);
  }
  // On every layout something fits most algorithms; pow2-only ones may
  // fall back everywhere on 3x2 and 3+1+2.
  if (!(a.restrictions & kPow2Only) || (size & (size - 1)) == 0) {
    EXPECT_GT(forced_runs_, 0);
  }
  MPI_Comm_free(&comm);
}

INSTANTIATE_TEST_SUITE_P(Registry, FlatMpi, ::testing::ValuesIn(every_algorithm()), algorithm_test_name);

}  // namespace
}  // namespace hiercoll::testing
