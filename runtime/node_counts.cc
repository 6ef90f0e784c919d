// The count exchange of the node-aware alltoallv (hier/node_counts.h):
// every rank sends its row of counts, in bytes, to its node's leader (to
// every rank of its node: everywhere), which then builds its schedule from
// its members' rows; each rank's scratch
// becomes bytes (ranks may use different datatypes of one signature, so a
// member's elements are not the leader's).  One message per rank, inside
// the node.  Every rank knows whether the exchange happens without a
// message: the composition was selected from what every rank knows alike,
// never from the counts.
#include <algorithm>
#include <vector>

#include "hier/node_counts.h"
#include "runtime/plan.h"
#include "runtime/requests.h"
#include "schedule/builder.h"

namespace hiercoll {

int share_node_counts(const Topology& topo, CommState* state, CollArgs* a, Buffers* bufs, bool everywhere) {
  const Layout& L = *topo.layout;
  const int leader = node_counts_leader(L, a->rank);
  const bool gathers = everywhere || a->rank == leader;
  std::vector<int64_t> row = count_row(*a, (*bufs)[Buf::kSend].type_size, (*bufs)[Buf::kRecv].type_size);
  const int64_t n = static_cast<int64_t>(row.size());
  const std::vector<int>& mine = L.node_ranks[L.node_of[a->rank]];
  std::vector<int64_t> rows;
  ScheduleBuilder b;
  for (int r : mine)
    if (r != a->rank && (everywhere || r == leader)) b.send(r, Span{Buf::kSend, 0, n});
  if (gathers) {
    rows.resize(mine.size() * row.size());
    for (size_t i = 0; i < mine.size(); ++i) {
      if (mine[i] == a->rank)
        std::copy(row.begin(), row.end(), rows.begin() + int64_t(i) * n);
      else
        b.recv(mine[i], Span{Buf::kRecv, int64_t(i) * n, n});
    }
  }
  Buffers cb;
  cb[Buf::kSend] = describe_buffer(row.data(), MPI_INT64_T, 1);
  cb[Buf::kRecv] = describe_buffer(rows.data(), MPI_INT64_T, 1);
  cb[Buf::kTmp] = describe_buffer(nullptr, MPI_INT64_T, 1);
  const int rc = run_blocking(b.finish(), cb, MPI_OP_NULL, topo.comm, state->next_tag_base());
  if (rc != MPI_SUCCESS) return rc;
  a->node_counts = gathers ? std::move(rows) : std::move(row);
  (*bufs)[Buf::kTmp] = describe_buffer(nullptr, MPI_BYTE, 1);
  return MPI_SUCCESS;
}

}  // namespace hiercoll
