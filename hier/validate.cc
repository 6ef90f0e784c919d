#include <cstdio>

#include "hier/call.h"
#include "hier/comm_registry.h"

namespace hiercoll {

namespace {

bool is_rooted(Op op) { return op == Op::kBcast || op == Op::kReduce || op == Op::kGather || op == Op::kScatter; }
bool is_reduction(Op op) {
  return op == Op::kReduce || op == Op::kAllreduce || op == Op::kReduceScatter || op == Op::kScan || op == Op::kExscan;
}

int complain(const Call& c, int code, const char* what, long value) {
  std::fprintf(stderr, "hiercoll: %s: %s (%ld)\n", c.mpi_name, what, value);
  return code;
}

// A buffer that must hold data: count elements of type at buf.
int check_data(const Call& c, const void* buf, long count, MPI_Datatype type, const char* which) {
  if (count < 0) return complain(c, MPI_ERR_COUNT, "negative count", count);
  if (type == MPI_DATATYPE_NULL) return complain(c, MPI_ERR_TYPE, "MPI_DATATYPE_NULL", 0);
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS) return complain(c, MPI_ERR_TYPE, "invalid datatype", 0);
  if (count > 0 && buf == nullptr && size > 0) {
    // MPI_BOTTOM (null) is legal with absolute-address datatypes only.
    MPI_Aint lb, extent;
    PMPI_Type_get_true_extent(type, &lb, &extent);
    if (lb == 0) {
      std::fprintf(stderr, "hiercoll: %s: null %s buffer with %ld elements\n", c.mpi_name, which, count);
      return MPI_ERR_BUFFER;
    }
  }
  return MPI_SUCCESS;
}

bool is_pair_type(MPI_Datatype t) {
  for (MPI_Datatype p : {MPI_2INT, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
                         MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER})
    if (t == p) return true;
  return false;
}

bool is_predefined_op(MPI_Op op) {
  for (MPI_Op p : {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR,
                   MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP})
    if (op == p) return true;
  return false;
}

// Predefined operations take predefined datatypes only, and MINLOC/MAXLOC
// exactly the pair types (as MPI checks it).
int check_op_type(const Call& c, MPI_Datatype type) {
  if (!is_predefined_op(c.mpi_op) || type == MPI_DATATYPE_NULL) return MPI_SUCCESS;
  int ni, na, nd, combiner;
  PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  const bool loc = c.mpi_op == MPI_MINLOC || c.mpi_op == MPI_MAXLOC;
  if (combiner != MPI_COMBINER_NAMED || loc != is_pair_type(type))
    return complain(c, MPI_ERR_OP, "predefined operation not defined for this datatype", 0);
  return MPI_SUCCESS;
}

}  // namespace

int raise_error(MPI_Comm comm, int code) {
  const bool unusable = comm == MPI_COMM_NULL || is_freed_comm(comm);
  PMPI_Comm_call_errhandler(unusable ? MPI_COMM_WORLD : comm, code);
  return code;
}

int validate(const Call& c, bool* inter) {
  *inter = false;
  if (c.comm == MPI_COMM_NULL) return complain(c, MPI_ERR_COMM, "MPI_COMM_NULL communicator", 0);
  if (is_freed_comm(c.comm)) return complain(c, MPI_ERR_COMM, "communicator already freed", 0);
  int flag = 0, size = 0, rank = 0;
  if (PMPI_Comm_test_inter(c.comm, &flag) != MPI_SUCCESS || PMPI_Comm_size(c.comm, &size) != MPI_SUCCESS)
    return complain(c, MPI_ERR_COMM, "invalid communicator", 0);
  if (flag) {
    *inter = true;  // MPI checks intercommunicator calls itself
    return MPI_SUCCESS;
  }
  PMPI_Comm_rank(c.comm, &rank);
  if (is_rooted(c.op) && (c.root < 0 || c.root >= size)) return complain(c, MPI_ERR_ROOT, "invalid root", c.root);
  if (is_reduction(c.op)) {
    if (c.mpi_op == MPI_OP_NULL) return complain(c, MPI_ERR_OP, "MPI_OP_NULL", 0);
    const int rc = check_op_type(c, c.recvtype);
    if (rc != MPI_SUCCESS) return rc;
  }

  const bool in_place_send = c.sendbuf == MPI_IN_PLACE;
  const bool root = rank == c.root;
  int rc = MPI_SUCCESS;
  switch (c.op) {
    case Op::kBcast:
      rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "");
      break;
    case Op::kReduce:
      if (!in_place_send) rc = check_data(c, c.sendbuf, c.sendcount, c.sendtype, "send");
      else if (!root) return complain(c, MPI_ERR_BUFFER, "MPI_IN_PLACE on a non-root rank", rank);
      if (rc == MPI_SUCCESS && root) rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "receive");
      break;
    case Op::kAllreduce: case Op::kScan: case Op::kExscan:
      if (!in_place_send) rc = check_data(c, c.sendbuf, c.recvcount, c.recvtype, "send");
      if (rc == MPI_SUCCESS) rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "receive");
      break;
    case Op::kReduceScatter: {
      long total = 0;
      for (int r = 0; r < size; ++r) {
        const int n = c.recvcounts ? c.recvcounts[r] : c.recvcount;
        if (n < 0) return complain(c, MPI_ERR_COUNT, "negative count", n);
        total += n;
      }
      if (!in_place_send) rc = check_data(c, c.sendbuf, total, c.recvtype, "send");
      if (rc == MPI_SUCCESS)
        rc = check_data(c, c.recvbuf, in_place_send ? total : (c.recvcounts ? c.recvcounts[rank] : c.recvcount),
                        c.recvtype, "receive");
      break;
    }
    case Op::kAllgather: case Op::kAlltoall:
      if (!in_place_send)
        rc = check_data(c, c.sendbuf, long(c.sendcount) * (c.op == Op::kAlltoall ? size : 1), c.sendtype, "send");
      if (rc == MPI_SUCCESS) rc = check_data(c, c.recvbuf, long(c.recvcount) * size, c.recvtype, "receive");
      break;
    case Op::kGather:
      if (!(root && in_place_send)) rc = check_data(c, c.sendbuf, c.sendcount, c.sendtype, "send");
      if (rc == MPI_SUCCESS && root) rc = check_data(c, c.recvbuf, long(c.recvcount) * size, c.recvtype, "receive");
      break;
    case Op::kScatter:
      if (root) rc = check_data(c, c.sendbuf, long(c.sendcount) * size, c.sendtype, "send");
      if (rc == MPI_SUCCESS && !(root && c.recvbuf == MPI_IN_PLACE))
        rc = check_data(c, c.recvbuf, c.recvcount, c.recvtype, "receive");
      break;
    case Op::kBarrier:
      break;
  }
  return rc;
}

}  // namespace hiercoll
