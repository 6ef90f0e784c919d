// All-to-all algorithms (Thakur, Rabenseifner, Gropp §4.3).  Data: Send
// block j goes to rank j, Recv block j comes from rank j (unit = one block,
// see schedule/coll_args.h).  Pairwise and scattered also serve alltoallv
// (algorithms/call_blocks.h); an in-place call works from a copy of its input
// (runtime/plan.cc).
#pragma once

#include "algorithms/call_blocks.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

// Bruck's index algorithm: ceil(lg p) steps, store and forward (short messages).
void build_alltoall_bruck(const CollArgs& a, ScheduleBuilder& b);
// Nonblocking receives and sends to every peer, scattered as (rank + i) % p,
// at most kAlltoallBatch peers in flight (medium messages).
void build_alltoall_scattered(const CollArgs& a, ScheduleBuilder& b);
// Pairwise exchange, one peer per step: rank ^ k for a power-of-two p, else
// to rank + k and from rank - k (long messages).
void build_alltoall_pairwise(const CollArgs& a, ScheduleBuilder& b);

// Peers per batch of the scattered algorithm (MPICH's throttle, default 32).
constexpr int kAlltoallBatch = 32;

// The local part every algorithm shares: my own block, Send[rank] -> Recv[rank].
inline void alltoall_copy_own(const CollArgs& a, ScheduleBuilder& b) {
  b.copy(send_blocks(a).span(Buf::kSend, a.rank), all_blocks(a).span(Buf::kRecv, a.rank));
}

}  // namespace hiercoll
