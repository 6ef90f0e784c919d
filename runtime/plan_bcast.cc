// MPI_Bcast laid out in bytes.  Ranks may describe the message with
// different datatypes of one type signature (the root 1001 elements of
// MPI_Type_contiguous(3, MPI_DOUBLE), the others 3003 MPI_DOUBLEs); units
// of each rank's own elements would cut blocks and pipeline segments
// differently on different ranks, so a bcast's unit is a byte of the
// message's data, on which every rank agrees.  A datatype that is its bytes
// in order (executors/buffers.h: bytes_in_order) is sent from the user's buffer
// as it is; any other goes through a packed copy: packed at the root before
// the schedule, unpacked on the other ranks after it.
#include <climits>
#include <new>

#include "runtime/plan.h"

namespace hiercoll {

namespace {

// Bytes per unit: 1, or past INT_MAX bytes the smallest divisor of the
// message that keeps every span's count in an int (MPI's counts are ints).
// It depends on the message's size only, so every rank finds the same one,
// and it is at most any rank's datatype size (itself such a divisor).
int64_t unit_bytes_for(int64_t bytes) {
  int64_t unit = bytes > INT_MAX ? (bytes + INT_MAX - 1) / INT_MAX : 1;
  while (bytes % unit != 0) ++unit;
  return unit;
}

}  // namespace

ByteMessage::~ByteMessage() {
  if (unit_type != MPI_DATATYPE_NULL) PMPI_Type_free(&unit_type);
}

int plan_bcast(const Call& c, int rank, Plan* p) {
  int type_size = 0;
  PMPI_Type_size(c.recvtype, &type_size);
  const int64_t bytes = int64_t(c.recvcount) * type_size;
  const int64_t unit = unit_bytes_for(bytes);
  ByteMessage& m = p->message;
  MPI_Datatype unit_type = MPI_BYTE;
  if (unit > 1) {
    int rc = PMPI_Type_contiguous(static_cast<int>(unit), MPI_BYTE, &m.unit_type);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&m.unit_type);
    if (rc != MPI_SUCCESS) return rc;
    unit_type = m.unit_type;
  }

  char* data = nullptr;
  if (bytes_in_order(c.recvtype)) {
    MPI_Aint true_lb, true_extent;
    PMPI_Type_get_true_extent(c.recvtype, &true_lb, &true_extent);
    data = static_cast<char*>(c.recvbuf) + true_lb;
  } else {
    m.packed.reset(new (std::nothrow) char[static_cast<size_t>(bytes)]);
    if (!m.packed) return MPI_ERR_NO_MEM;
    data = m.packed.get();
    if (rank == c.root) {
      const int rc = pack_elements(c.recvbuf, c.recvcount, c.recvtype, data);
      if (rc != MPI_SUCCESS) return rc;
    } else {
      m.unpack = true;
      m.unpack_to = c.recvbuf;
      m.count = c.recvcount;
      m.type = c.recvtype;
    }
  }

  p->args.count = bytes / unit;
  p->unit_bytes = unit;
  const BufDesc bytes_desc = describe_buffer(data, unit_type, 1);
  for (BufDesc& d : p->bufs.buf) d = bytes_desc;
  p->bufs[Buf::kTmp].base = nullptr;  // the executor's scratch, should a schedule want one
  return MPI_SUCCESS;
}

int finish_plan(const Plan& p) {
  if (!p.typed.unpacks.empty()) return p.typed.unpack();
  const ByteMessage& m = p.message;
  if (!m.unpack) return MPI_SUCCESS;
  return unpack_elements(m.packed.get(), m.count, m.type, m.unpack_to);
}

}  // namespace hiercoll
