// One operation's buffers and call, through hiercoll (MPI_*, which this
// binary links to hiercoll) or through Open MPI's own collectives (PMPI_*),
// and the check of a call's result.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "measure/ops.h"
#include "measure/vector_counts.h"

namespace hcbench {

// The bytes a point really moves per rank: reductions use whole floats
// (at least one), the others whole bytes (at least one), barrier none.
int64_t effective_bytes(const OpInfo& op, int64_t bytes);
// The largest buffer one rank needs for (op, bytes) on `ranks` ranks.
int64_t largest_buffer(const OpInfo& op, int64_t bytes, int ranks);

struct OpBuffers {
  std::vector<char> send;
  std::vector<char> recv;
  int count = 0;  // elements per rank (the call's count argument; v-variants: this rank's block)
  MPI_Datatype type = MPI_BYTE;
  // V-variants: the blocks of the side(s) with one block per rank.
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<MPI_Datatype> types;  // alltoallw: each peer's (MPI_BYTE: displacements are bytes either way)
};

// Buffers for rank `rank` (v-variants: blocks after `counts`).
OpBuffers make_buffers(const OpInfo& op, int64_t bytes, int ranks, int rank = 0, const CountsPattern& counts = {});

// Calls op on comm (with MPI_SUM for reductions): via hiercoll (hiercoll =
// true) or PMPI_*.
int call_op(const OpInfo& op, bool hiercoll, OpBuffers& b, int root, MPI_Comm comm);
// Starts the nonblocking version of the same call (MPI_I<op> or PMPI_I<op>).
int start_op(const OpInfo& op, bool hiercoll, OpBuffers& b, int root, MPI_Comm comm, MPI_Request* request);
// Makes the persistent version of the same call, not started: hiercoll's
// (MPIX_<op>_init, which this binary links to hiercoll) or Open MPI's own
// (PMPIX_<op>_init).  It stays bound to b's buffers.
int init_op(const OpInfo& op, bool hiercoll, OpBuffers& b, int root, MPI_Comm comm, MPI_Request* request);

// Fills the buffers with data whose result is known; verify() checks it.
void fill_for_check(const OpInfo& op, OpBuffers& b, int rank, int ranks, int root);
bool verify(const OpInfo& op, const OpBuffers& b, int rank, int ranks, int root);

}  // namespace hcbench
