// MPI_Alltoallw laid out as an alltoallv of bytes.  Each peer's block has
// a datatype of its own and a displacement in bytes, while a schedule's
// buffer has one datatype; but messages match by bytes (the type
// signatures of a block's two ends are equal), so the alltoallv schedules
// run on each side's bytes.  A side whose non-empty blocks are all their
// bytes in order (executors/buffers.h: bytes_in_order) is used in place, a
// block at its displacement plus its datatype's true lower bound; any
// other side goes through a packed copy (PackedBlocks in plan.h).
#include <new>

#include "runtime/plan.h"

namespace hiercoll {

namespace {

// One side of the call: per peer a count, a byte displacement and a datatype.
struct TypedSide {
  char* base;
  const int* counts;
  const int* displs;
  const MPI_Datatype* types;
};

int64_t block_bytes(const TypedSide& s, int j) {
  if (s.counts[j] == 0) return 0;
  int size = 0;
  PMPI_Type_size(s.types[j], &size);
  return int64_t(s.counts[j]) * size;
}

// Whether every non-empty block (`bytes`: each block's) can be read or
// written as plain bytes where it lies (a null base, MPI_BOTTOM, is left to
// MPI's datatype engine).
bool bytes_where_they_lie(const TypedSide& s, const std::vector<int64_t>& bytes) {
  for (size_t j = 0; j < bytes.size(); ++j)
    if (bytes[j] > 0 && (s.base == nullptr || !bytes_in_order(s.types[j]))) return false;
  return true;
}

// Lays out one side in bytes: counts and displacements into *counts and
// *displs, and the buffer *d.  `packed`/`blocks`: the side's packed copy and
// the blocks it holds, used when the side's bytes are not where they lie.
int lay_out(const TypedSide& s, int size, std::vector<int64_t>* counts, std::vector<int64_t>* displs,
            std::vector<char>* packed, std::vector<PackedBlocks::Block>* blocks, BufDesc* d) {
  counts->resize(size);
  displs->resize(size);
  for (int j = 0; j < size; ++j) (*counts)[j] = block_bytes(s, j);
  const bool in_place = bytes_where_they_lie(s, *counts);
  int64_t total = 0;
  for (int j = 0; j < size; ++j) {
    if (in_place) {
      MPI_Aint true_lb = 0, true_extent = 0;
      if ((*counts)[j] > 0) PMPI_Type_get_true_extent(s.types[j], &true_lb, &true_extent);
      (*displs)[j] = int64_t(s.displs[j]) + true_lb;
    } else {
      (*displs)[j] = total;
      if ((*counts)[j] > 0) blocks->push_back({s.base + s.displs[j], s.counts[j], s.types[j], total});
    }
    total += (*counts)[j];
  }
  char* base = s.base;
  if (!in_place) {
    try {
      packed->resize(static_cast<size_t>(total));
    } catch (const std::bad_alloc&) {
      return MPI_ERR_NO_MEM;
    }
    base = packed->data();
  }
  *d = describe_buffer(base, MPI_BYTE, 1);
  return MPI_SUCCESS;
}

}  // namespace

int PackedBlocks::pack() {
  for (const Block& b : packs) {
    const int rc = pack_elements(b.at, b.count, b.type, send.data() + b.packed_off);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int PackedBlocks::unpack() const {
  for (const Block& b : unpacks) {
    const int rc = unpack_elements(recv.data() + b.packed_off, b.count, b.type, b.at);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int plan_alltoallw(const Call& c, int /*rank*/, int size, Plan* p) {
  CollArgs& a = p->args;
  Buffers& b = p->bufs;
  PackedBlocks& t = p->typed;
  p->unit_bytes = 1;
  const TypedSide recv{static_cast<char*>(c.recvbuf), c.recvcounts, c.rdispls, c.recvtypes};
  int rc = lay_out(recv, size, &a.counts, &a.displs, &t.recv, &t.unpacks, &b[Buf::kRecv]);
  if (rc != MPI_SUCCESS) return rc;
  b[Buf::kTmp] = describe_buffer(nullptr, MPI_BYTE, 1);
  const bool in_place = c.sendbuf == MPI_IN_PLACE;
  if (in_place && t.recv.empty()) {
    // The receive side's bytes, read and overwritten: copied aside first.
    a.send_counts = a.counts;
    a.send_displs = a.displs;
    return copy_input_aside(p);
  }
  // In place with a packed receive side: the input is packed from the
  // receive buffer, with the receive side's datatypes, before anything lands.
  const TypedSide send = in_place ? recv
                                  : TypedSide{static_cast<char*>(const_cast<void*>(c.sendbuf)), c.sendcounts,
                                              c.sdispls, c.sendtypes};
  rc = lay_out(send, size, &a.send_counts, &a.send_displs, &t.send, &t.packs, &b[Buf::kSend]);
  if (rc == MPI_SUCCESS) rc = t.pack();
  return rc;
}

}  // namespace hiercoll
