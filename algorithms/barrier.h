// Barrier algorithms.  Messages carry no data (kNoData), so every step
// that must wait for another says so explicitly.  The primitives run on
// group g: `entry` are the step ids this member's barrier messages must
// wait for (what "having entered" means in a composition, empty for a
// plain barrier); they return the ids of the steps after which every member
// of g is known to have entered.
#pragma once

#include "algorithms/group.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"

namespace hiercoll {

// A zero-unit message.
inline const Span kNoData{Buf::kTmp, 0, 0};

// Dissemination (Hensgen, Finkel, Manber; Thakur et al. §4.1.2):
// ceil(lg p) rounds, round k to i + 2^k and from i - 2^k.
Deps barrier_dissemination(ScheduleBuilder& b, const Group& g, const Deps& entry);
// Pairwise exchange with i ^ 2^k; non-power-of-two p folded onto the
// largest power of two as in Thakur et al. §5.1.
Deps barrier_recursive_doubling(ScheduleBuilder& b, const Group& g, const Deps& entry);
// Tournament with statically fixed winners (Hensgen, Finkel, Manber), then
// tree wake-up from the champion.
Deps barrier_tournament(ScheduleBuilder& b, const Group& g, const Deps& entry);
// Extended ring (Vadhiyar, Fagg, Dongarra §2.8): a token around the ring
// from member 0 and back, then a second pass from 0 to p-2; 2p-2 steps.
Deps barrier_ring(ScheduleBuilder& b, const Group& g, const Deps& entry);

void build_barrier_dissemination(const CollArgs& a, ScheduleBuilder& b);
void build_barrier_recursive_doubling(const CollArgs& a, ScheduleBuilder& b);
void build_barrier_tournament(const CollArgs& a, ScheduleBuilder& b);
void build_barrier_ring(const CollArgs& a, ScheduleBuilder& b);

// A whole-communicator barrier from a group primitive.
using BarrierFn = Deps (*)(ScheduleBuilder&, const Group&, const Deps&);
inline void build_barrier_with(const CollArgs& a, ScheduleBuilder& b, BarrierFn fn) {
  fn(b, Group{a.rank, a.size, nullptr}, Deps{});
}

}  // namespace hiercoll
