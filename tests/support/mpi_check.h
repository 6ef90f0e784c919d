// Runs one collective call through MPI_<op> (hiercoll, when the test links
// it) and through PMPI_<op> (the MPI library) on the same inputs, and
// compares this rank's results byte for byte (gaps of non-contiguous types
// included).
#pragma once

#include <mpi.h>

#include <string>

#include "hier/stats.h"
#include "tests/support/data_cases.h"

namespace hiercoll::testing {

struct MpiCase {
  ApiOp api = ApiOp::kBcast;
  const DataCase* data = nullptr;
  int count = 0;  // elements (per block for block collectives)
  int root = 0;
  bool in_place = false;
  std::string describe() const;
};

// Whether MPI allows MPI_IN_PLACE for the operation.
bool allows_in_place(ApiOp api);
bool is_rooted(ApiOp api);

// "" when this rank's results agree, else what differs.
std::string compare_with_native(const MpiCase& c, MPI_Comm comm);

// Calls MPI_<op> (native=false) or PMPI_<op> (native=true) with the
// buffers a case uses; returns the MPI return code.
int call_collective(ApiOp api, bool native, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                    MPI_Op op, int root, const int* recvcounts, MPI_Comm comm);

}  // namespace hiercoll::testing
