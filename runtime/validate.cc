#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "runtime/call.h"
#include "runtime/comm_registry.h"
#include "runtime/op_types.h"

namespace hiercoll {

namespace {

bool is_gather(Op op) { return op == Op::kGather || op == Op::kGatherv; }
bool is_scatter(Op op) { return op == Op::kScatter || op == Op::kScatterv; }
bool is_reduction(Op op) {
  return op == Op::kReduce || op == Op::kAllreduce || op == Op::kReduceScatter || op == Op::kScan || op == Op::kExscan;
}

// The communicator whose error handler gets a call's error: a null or freed
// one has none, so MPI_COMM_WORLD's takes it.
MPI_Comm handler_comm(MPI_Comm comm) { return comm == MPI_COMM_NULL || is_freed_comm(comm) ? MPI_COMM_WORLD : comm; }

bool returns_errors(MPI_Comm comm) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  if (PMPI_Comm_get_errhandler(handler_comm(comm), &eh) != MPI_SUCCESS) return false;
  const bool returns = eh == MPI_ERRORS_RETURN;
  PMPI_Errhandler_free(&eh);
  return returns;
}

// Says why a call is refused, once per function and reason, and returns
// code.  Silent where the error handler returns errors: the caller asked
// for codes, and Open MPI prints nothing then either.
int complain(const Call& c, int code, const std::string& what, long value) {
  if (returns_errors(c.comm)) return code;
  static std::mutex mu;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mu);
  if (said.insert(std::string(c.mpi_name) + ": " + what).second)
    std::fprintf(stderr, "hiercoll: %s: %s (%ld)\n", c.mpi_name, what.c_str(), value);
  return code;
}

std::string type_name(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return "MPI_DATATYPE_NULL";
  char name[MPI_MAX_OBJECT_NAME] = "";
  int len = 0;
  PMPI_Type_get_name(type, name, &len);
  return len > 0 ? name : "a derived datatype";
}

// MPI has no query for it, but Open MPI checks a zero-count send to
// MPI_PROC_NULL for an uncommitted datatype before it returns at once.  The
// probe travels on a private duplicate of MPI_COMM_SELF that returns errors.
bool is_committed(MPI_Datatype type) {
  static const MPI_Comm probe = [] {
    MPI_Comm c;
    PMPI_Comm_dup(MPI_COMM_SELF, &c);
    PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return c;
  }();
  return PMPI_Send(nullptr, 0, type, MPI_PROC_NULL, 0, probe) == MPI_SUCCESS;
}

// A buffer that must hold data: count elements of type at buf.  The type is
// checked with count 0 too, as MPI does.  `which`: "send ", "receive " or "".
// `checked`: a datatype this call has already found valid (the send and
// receive sides of a reduction share one), whose checks are skipped; set
// to `type` once it passes.
int check_data(const Call& c, const void* buf, long count, MPI_Datatype type, const char* which,
               MPI_Datatype* checked) {
  if (count < 0) return complain(c, MPI_ERR_COUNT, "negative count", count);
  if (type == MPI_DATATYPE_NULL) return complain(c, MPI_ERR_TYPE, "MPI_DATATYPE_NULL", 0);
  if (type != *checked) {
    int size = 0;
    if (PMPI_Type_size(type, &size) != MPI_SUCCESS) return complain(c, MPI_ERR_TYPE, "invalid datatype", 0);
    if (!is_predefined_type(type) && !is_committed(type))
      return complain(c, MPI_ERR_TYPE, std::string(which) + "datatype not committed", count);
    *checked = type;
  }
  if (count > 0 && buf == nullptr) {
    int size = 0;
    PMPI_Type_size(type, &size);
    if (size == 0) return MPI_SUCCESS;
    // MPI_BOTTOM (null) is legal with absolute-address datatypes only.
    MPI_Aint lb, extent;
    PMPI_Type_get_true_extent(type, &lb, &extent);
    if (lb == 0) return complain(c, MPI_ERR_BUFFER, "null " + std::string(which) + "buffer with data", count);
  }
  return MPI_SUCCESS;
}

// The operation: predefined ones only on the datatypes MPI defines them for.
int check_op(const Call& c) {
  if (c.mpi_op == MPI_OP_NULL) return complain(c, MPI_ERR_OP, "MPI_OP_NULL", 0);
  if (is_predefined_op(c.mpi_op) && !op_defined_on(c.mpi_op, c.recvtype))
    return complain(c, MPI_ERR_OP, "predefined operation not defined on " + type_name(c.recvtype), 0);
  return MPI_SUCCESS;
}

// Whether this rank's send / receive buffer is significant.
bool send_matters(Op op, bool root) { return op != Op::kBcast && op != Op::kBarrier && (!is_scatter(op) || root); }
bool recv_matters(Op op, bool root) { return op != Op::kBarrier && ((op != Op::kReduce && !is_gather(op)) || root); }

// MPI_IN_PLACE may stand for the send buffer of the unrooted reductions,
// allgather(v) and alltoall(v) and of a reduce's or gather(v)'s root, and
// for the receive buffer of a scatter(v)'s root.
bool in_place_allowed(Op op, bool root, bool send) {
  if (!send) return is_scatter(op) && root;
  if (op == Op::kReduce || is_gather(op)) return root;
  return op != Op::kBcast && !is_scatter(op);
}

// A v-variant's per-rank blocks: arrays given, no negative count.  *total:
// the elements of all blocks (what the buffer must be able to hold).
int check_blocks(const Call& c, const int* counts, const int* displs, int size, long* total) {
  if (!counts || !displs) return complain(c, MPI_ERR_ARG, "null counts or displacements array", 0);
  *total = 0;
  for (int r = 0; r < size; ++r) {
    if (counts[r] < 0) return complain(c, MPI_ERR_COUNT, "negative count", counts[r]);
    *total += counts[r];
  }
  return MPI_SUCCESS;
}

// One side of an alltoallw: per peer a count and a datatype.
int check_typed_blocks(const Call& c, const void* buf, const int* counts, const int* displs,
                       const MPI_Datatype* types, int size, const char* which, MPI_Datatype* checked) {
  if (!counts || !displs || !types)
    return complain(c, MPI_ERR_ARG, "null counts, displacements or datatypes array", 0);
  for (int r = 0; r < size; ++r) {
    const int rc = check_data(c, buf, counts[r], types[r], which, checked);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

// The v-variants' arguments, where significant on this rank.
int check_vector(const Call& c, int size, bool root, MPI_Datatype* checked) {
  if (c.recvtypes || c.sendtypes) {  // alltoallw
    int rc = MPI_SUCCESS;
    if (c.sendbuf != MPI_IN_PLACE)
      rc = check_typed_blocks(c, c.sendbuf, c.sendcounts, c.sdispls, c.sendtypes, size, "send ", checked);
    if (rc == MPI_SUCCESS)
      rc = check_typed_blocks(c, c.recvbuf, c.recvcounts, c.rdispls, c.recvtypes, size, "receive ", checked);
    return rc;
  }
  const bool in_place_send = c.sendbuf == MPI_IN_PLACE;
  const bool sends_one = c.op == Op::kGatherv || c.op == Op::kAllgatherv;    // send side: one block
  const bool sends_all = (c.op == Op::kScatterv && root) || c.op == Op::kAlltoallv;  // one per rank
  const bool recvs_all = (c.op == Op::kGatherv && root) || c.op == Op::kAllgatherv || c.op == Op::kAlltoallv;
  const bool recvs_one = c.op == Op::kScatterv && !(root && c.recvbuf == MPI_IN_PLACE);
  long total = 0;
  int rc = MPI_SUCCESS;
  if (sends_one && !in_place_send) rc = check_data(c, c.sendbuf, c.sendcount, c.sendtype, "send ", checked);
  if (rc == MPI_SUCCESS && sends_all && !in_place_send) {
    rc = check_blocks(c, c.sendcounts, c.sdispls, size, &total);
    if (rc == MPI_SUCCESS) rc = check_data(c, c.sendbuf, total, c.sendtype, "send ", checked);
  }
  if (rc == MPI_SUCCESS && recvs_all) {
    rc = check_blocks(c, c.recvcounts, c.rdispls, size, &total);
    if (rc == MPI_SUCCESS) rc = check_data(c, c.recvbuf, total, c.recvtype, "receive ", checked);
  }
  if (rc == MPI_SUCCESS && recvs_one) rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "receive ", checked);
  return rc;
}

// MPI_IN_PLACE where MPI does not allow it, and send and receive buffers that
// alias without MPI_IN_PLACE where Open MPI 4.1 refuses them; with its error
// classes (it gives MPI_ERR_BUFFER in allreduce, MPI_ERR_ARG elsewhere).
int check_buffers(const Call& c, bool root) {
  const int code = c.op == Op::kAllreduce ? MPI_ERR_BUFFER : MPI_ERR_ARG;
  if (c.sendbuf == MPI_IN_PLACE && send_matters(c.op, root) && !in_place_allowed(c.op, root, true))
    return complain(c, code, "MPI_IN_PLACE is not allowed as this rank's send buffer", 0);
  if (c.recvbuf == MPI_IN_PLACE && recv_matters(c.op, root) && !in_place_allowed(c.op, root, false))
    return complain(c, code, "MPI_IN_PLACE is not allowed as this rank's receive buffer", 0);
  const bool aliased = c.sendbuf == c.recvbuf && c.sendbuf != MPI_IN_PLACE;
  if (aliased && ((c.op == Op::kAllreduce && c.sendbuf != MPI_BOTTOM && c.recvcount > 1) ||
                  (c.op == Op::kReduce && root && c.recvcount != 0)))
    return complain(c, code, "send and receive buffers are the same (use MPI_IN_PLACE)", c.recvcount);
  return MPI_SUCCESS;
}

// A reduce-scatter's counts (none negative) and its buffers.
int check_reduce_scatter(const Call& c, int size, int rank, MPI_Datatype* checked) {
  const bool in_place_send = c.sendbuf == MPI_IN_PLACE;
  int rc = MPI_SUCCESS;
  long total = 0;
  for (int r = 0; r < size; ++r) {
    const int n = c.recvcounts ? c.recvcounts[r] : c.recvcount;
    if (n < 0) return complain(c, MPI_ERR_COUNT, "negative count", n);
    total += n;
  }
  if (!in_place_send) rc = check_data(c, c.sendbuf, total, c.recvtype, "send ", checked);
  if (rc == MPI_SUCCESS)
    rc = check_data(c, c.recvbuf, in_place_send ? total : (c.recvcounts ? c.recvcounts[rank] : c.recvcount),
                    c.recvtype, "receive ", checked);
  return rc;
}

// Every buffer significant on this rank, with its count and datatype.
int check_call_data(const Call& c, int size, int rank, bool root) {
  int rc = MPI_SUCCESS;
  const bool in_place_send = c.sendbuf == MPI_IN_PLACE;
  MPI_Datatype checked = MPI_DATATYPE_NULL;
  switch (c.op) {
    case Op::kBcast:
      rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "", &checked);
      break;
    case Op::kReduce:
      if (!in_place_send) rc = check_data(c, c.sendbuf, c.sendcount, c.sendtype, "send ", &checked);
      if (rc == MPI_SUCCESS && root) rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "receive ", &checked);
      break;
    case Op::kAllreduce: case Op::kScan: case Op::kExscan:
      if (!in_place_send) rc = check_data(c, c.sendbuf, c.recvcount, c.recvtype, "send ", &checked);
      if (rc == MPI_SUCCESS) rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "receive ", &checked);
      break;
    case Op::kReduceScatter:
      rc = check_reduce_scatter(c, size, rank, &checked);
      break;
    case Op::kAllgather: case Op::kAlltoall:
      if (!in_place_send)
        rc = check_data(c, c.sendbuf, long(c.sendcount) * (c.op == Op::kAlltoall ? size : 1), c.sendtype, "send ", &checked);
      if (rc == MPI_SUCCESS) rc = check_data(c, c.recvbuf, long(c.recvcount) * size, c.recvtype, "receive ", &checked);
      break;
    case Op::kGather:
      if (!(root && in_place_send)) rc = check_data(c, c.sendbuf, c.sendcount, c.sendtype, "send ", &checked);
      if (rc == MPI_SUCCESS && root) rc = check_data(c, c.recvbuf, long(c.recvcount) * size, c.recvtype, "receive ", &checked);
      break;
    case Op::kScatter:
      if (root) rc = check_data(c, c.sendbuf, long(c.sendcount) * size, c.sendtype, "send ", &checked);
      if (rc == MPI_SUCCESS && !(root && c.recvbuf == MPI_IN_PLACE))
        rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "receive ", &checked);
      break;
    case Op::kBarrier:
      break;
    case Op::kGatherv: case Op::kScatterv: case Op::kAllgatherv: case Op::kAlltoallv:
      rc = check_vector(c, size, root, &checked);
      break;
  }
  return rc;
}

}  // namespace

int raise_error(MPI_Comm comm, int code) {
  PMPI_Comm_call_errhandler(handler_comm(comm), code);
  return code;
}

int validate_comm(const Call& c, bool* inter) {
  *inter = false;
  if (c.comm == MPI_COMM_NULL) return complain(c, MPI_ERR_COMM, "MPI_COMM_NULL communicator", 0);
  if (is_freed_comm(c.comm)) return complain(c, MPI_ERR_COMM, "communicator already freed", 0);
  int flag = 0, size = 0;
  if (PMPI_Comm_test_inter(c.comm, &flag) != MPI_SUCCESS || PMPI_Comm_size(c.comm, &size) != MPI_SUCCESS)
    return complain(c, MPI_ERR_COMM, "invalid communicator", 0);
  *inter = flag != 0;  // MPI checks intercommunicator calls itself
  return MPI_SUCCESS;
}

int validate_args(const Call& c) {
  int size = 0, rank = 0;
  PMPI_Comm_size(c.comm, &size);
  PMPI_Comm_rank(c.comm, &rank);
  // Checked on every rank before anything is sent, in Open MPI's order.
  int rc = is_reduction(c.op) ? check_op(c) : MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  if (is_rooted(c.op) && (c.root < 0 || c.root >= size)) return complain(c, MPI_ERR_ROOT, "invalid root", c.root);
  const bool root = rank == c.root;
  rc = check_buffers(c, root);
  if (rc != MPI_SUCCESS) return rc;
  return check_call_data(c, size, rank, root);
}

}  // namespace hiercoll
