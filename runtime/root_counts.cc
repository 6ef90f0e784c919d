// The count exchange of gatherv and scatterv: MPI gives the block counts to
// the root only, but the binomial trees and the node-aggregated
// compositions need them on every rank (an inner rank forwards its
// subtree's blocks, a leader its node's).  Every rank knows whether the
// exchange happens without a message: the algorithm that needs it was
// selected from what every rank knows alike (group size, layout, knobs,
// tuning file), never from the counts.  The root then broadcasts its
// counts with hiercoll's own bcast (the hierarchical one on multi-node
// layouts: one message per node across the network), p * 8 bytes, which
// costs one bcast latency per call; after it every rank holds the counts
// and builds the same schedule.
#include <vector>

#include "algorithms/call_blocks.h"
#include "hier/hier_registry.h"
#include "runtime/plan.h"
#include "runtime/requests.h"
#include "select/flat_choice.h"

namespace hiercoll {

int share_root_counts(const Topology& topo, CommState* state, CollArgs* a, Buffers* bufs, int64_t unit_bytes) {
  // In bytes: ranks may use different datatypes of one signature, so the
  // root's elements are not the others'.  A non-root forwards other
  // ranks' blocks in scratch of bytes (its own block stays in its type).
  std::vector<int64_t> counts(a->size);
  if (a->rank == a->root)
    for (int j = 0; j < a->size; ++j) counts[j] = a->counts[j] * unit_bytes;
  CollArgs bc;
  bc.op = Op::kBcast;
  bc.rank = a->rank;
  bc.size = a->size;
  bc.root = a->root;
  bc.count = a->size * int64_t(sizeof(int64_t));  // units: bytes
  const std::shared_ptr<Schedule>* sched = nullptr;
  if (state->facts.hierarchical()) {
    const HierChoice* choice =
        choose_composition(*topo.layout, state->facts, bc, 1, 0, HierForced{}, nullptr, nullptr);
    if (choice)
      sched = &state->schedules.get(ScheduleKeyRef{choice, bc},
                                    [&] { return build_composed(*choice, *topo.layout, bc); });
  }
  if (!sched) {
    const FlatDecision d = decide_flat(bc, 1, FlatRequest{});
    bc.seg_units = d.seg_units;
    sched = &state->schedules.get(ScheduleKeyRef{d.algorithm, bc}, [&] { return build_schedule(*d.algorithm, bc); });
  }
  Buffers cb;
  cb[Buf::kRecv] = describe_buffer(counts.data(), MPI_BYTE, 1);
  cb[Buf::kSend] = cb[Buf::kRecv];
  cb[Buf::kTmp] = describe_buffer(nullptr, MPI_BYTE, 1);
  const int rc = run_blocking(**sched, cb, MPI_OP_NULL, topo.comm, state->next_tag_base());
  if (rc != MPI_SUCCESS || a->rank == a->root) return rc;
  adopt_root_counts(counts, a);
  (*bufs)[Buf::kTmp] = describe_buffer(nullptr, MPI_BYTE, 1);
  return MPI_SUCCESS;
}

}  // namespace hiercoll
