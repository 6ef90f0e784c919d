// Runs one collective call through MPI_<op> (hiercoll, when the test links
// it) and through PMPI_<op> (the MPI library) on the same inputs, and
// compares this rank's results byte for byte (gaps of non-contiguous types
// included).
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "call_by_op/call_by_op.h"
#include "runtime/stats.h"
#include "tests/support/data_cases.h"

namespace hiercoll::testing {

struct MpiCase {
  ApiOp api = ApiOp::kBcast;
  const DataCase* data = nullptr;
  int count = 0;  // elements (per block for block collectives)
  int root = 0;
  bool in_place = false;
  bool gaps = false;  // v-variants: blocks in reverse order with gaps (tests/support/vector_layout.h)
  std::string describe() const;
};

// A call whose sides describe the same data with different datatypes of one
// type signature (typed_cases()): the send side uses `send_type`, the
// receive side `recv_type`; for bcast, the root uses `send_type` and the
// other ranks `recv_type`.  `doubles` is the message (bcast) or one rank's
// block (gather, scatter, allgather, alltoall), in doubles.
struct TypedCase {
  ApiOp api = ApiOp::kBcast;
  const DataCase* send_type = nullptr;
  const DataCase* recv_type = nullptr;
  int doubles = 0;
  int root = 0;
  std::string describe() const;
};
// The cases of `api` for the pairs of datatypes the tests use, each pair
// both ways: contiguous3 and double (bytes in order on both sides), vector3
// and double (holes on one side), permuted3 and dup_chain3 (in order in
// memory, but not in type-map order, on one side).
std::vector<TypedCase> typed_pairs(ApiOp api, int doubles, int root);

// A duplicate of MPI_COMM_WORLD with the given info hints.
MPI_Comm world_with_hints(const std::vector<std::pair<const char*, const char*>>& hints);

// Whether MPI allows MPI_IN_PLACE for the operation.
bool allows_in_place(ApiOp api);
bool is_rooted(ApiOp api);

bool is_vector(ApiOp api);

// "" when hiercoll's result equals MPI's, else where they first differ.
std::string first_difference(const std::vector<char>& ours, const std::vector<char>& mpi, const std::string& what,
                             int rank);

// "" when this rank's results agree, else what differs.  `via`: how
// hiercoll's side is called (kMpiNonblocking: MPI_I<op> and MPI_Wait).
std::string compare_with_native(const MpiCase& c, MPI_Comm comm, Via via = Via::kMpi);
std::string compare_typed_with_native(const TypedCase& c, MPI_Comm comm, Via via = Via::kMpi);
// The v-variants' form of both (mpi_vector_check.cc): the send side in
// elements of `st`, the receive side in elements of `rt`; block sizes
// follow VectorLayout (scale `count`) in units of `group` doubles (0: one
// element, where both sides have one type).
std::string compare_vector_with_native(ApiOp api, const DataCase& st, const DataCase& rt, int count, int group,
                                       int root, bool in_place, bool gaps, MPI_Comm comm, Via via = Via::kMpi);

}  // namespace hiercoll::testing
