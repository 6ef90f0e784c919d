// The hierarchical compositions as data: which exist, what they need of the
// layout, which one a call gets, and which flat algorithm each phase runs.
// The rules are tables in hier_registry.cc; run_hierarchical (hier_run.cc)
// is the entry from run.cc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flat/schedule.h"
#include "hier/hier_compose.h"

namespace hiercoll {

const std::vector<HierComposition>& all_compositions();
const HierComposition* find_composition(Op op, const std::string& name);
std::vector<const HierComposition*> compositions_for(Op op);

// Whether the socket level is used for comp on this call: present, the
// composition goes three levels deep, and rank order survives it.
bool uses_sockets(const HierComposition& comp, const LayoutFacts& F, const CollArgs& a);
// Whether comp can run the call: its needs hold and at least two levels
// are non-trivial (else the flat path is as good and cheaper).  F is
// layout_facts(L).
bool composition_applies(const HierComposition& comp, const Layout& L, const LayoutFacts& F, const CollArgs& a);

// A choice for comp and the call; segment_bytes > 0 forces the segment
// (HIERCOLL_SEGMENT_BYTES), else segmented compositions get the flat
// default for the message and node count.  Not interned (tests adjust it).
HierChoice make_choice(const HierComposition& comp, const Layout& L, const LayoutFacts& F, const CollArgs& a,
                       int64_t unit_bytes, int64_t segment_bytes);

// The composition the selection rules pick for the call, interned (stable
// address, usable as a cache key); null when the call stays flat.
const HierChoice* choose_composition(const Layout& L, const LayoutFacts& F, const CollArgs& a, int64_t unit_bytes,
                                     int64_t segment_bytes);

// "" when every name in the rule tables is a registered composition or
// flat algorithm, else the first that is not (tests).
std::string check_hier_tables();

// Rank a.rank's schedule of the composed collective.
Schedule build_composed(const HierChoice& ch, const Layout& L, const CollArgs& a);

}  // namespace hiercoll
