// The hierarchical compositions as data: which exist, what they need of the
// layout, which one a call gets, and which flat algorithm each phase runs.
// The rules are tables in hier_rules.cc; choose_hierarchical (runtime/hier_run.cc)
// is the entry from run.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hier/hier_compose.h"
#include "schedule/registry_table.h"
#include "schedule/schedule.h"

namespace hiercoll {

// The list (hier_registry.cc), and its entries in its order.
const RegistryTable<HierComposition>& composition_table();
const std::vector<HierComposition>& all_compositions();
const HierComposition* find_composition(Op op, std::string_view name);
std::vector<const HierComposition*> compositions_for(Op op);

// Whether the socket level is used for comp on this call: present, the
// composition goes three levels deep, and rank order survives it.
bool uses_sockets(const HierComposition& comp, const LayoutFacts& F, const CollArgs& a);
// Whether comp can run the call: its needs hold and at least two levels
// are non-trivial (else the flat path is as good and cheaper).  F is
// layout_facts(L).
bool composition_applies(const HierComposition& comp, const Layout& L, const LayoutFacts& F, const CollArgs& a);

// The names of the flat algorithms that the inter-node phases of op's
// compositions can run (every algorithm of every operation in their
// inter_ops, each name once, registry order); empty when none has such a
// phase (barrier, operations without compositions).
std::vector<std::string> inter_algorithm_names(Op op);

// The algorithm named `name` forced on comp's inter-node phases for the
// call: of the first operation in comp.inter_ops that has an algorithm of
// that name (HierChoice::inter).  Null when the layout has one node, when
// no inter-node phase of comp runs an algorithm of that name, or when one
// that does would not fit (its restrictions, for the node leaders' group
// and the call's operation).
const Algorithm* inter_algorithm_for(const HierComposition& comp, const Layout& L, const CollArgs& a,
                                     const std::string& name);

// A choice for comp and the call; segment_bytes > 0 forces the segment
// (HIERCOLL_SEGMENT_BYTES), else segmented compositions get the flat
// default for the message and node count; `inter` (from
// inter_algorithm_for) forces the inter-node algorithm.  Not interned
// (tests adjust it).
HierChoice make_choice(const HierComposition& comp, const Layout& L, const LayoutFacts& F, const CollArgs& a,
                       int64_t unit_bytes, int64_t segment_bytes, const Algorithm* inter = nullptr,
                       const MachineFigures* machine = nullptr, const PhaseChooser* phases = nullptr);

// The node leaders' phase of operation `op` for call `a`, as far as an
// algorithm's restrictions go (group size, commutativity; root 0).
CollArgs leaders_args(Op op, const Layout& L, const CollArgs& a);

// The segment, in bytes, of every phase of a segmented composition where
// nothing forces one: the flat default for the message (for gather and
// scatter the largest node's bundle) and the node count, at most 4
// segments a message; 0 for a composition that is not segmented.
int64_t composition_default_segment_bytes(const HierComposition& comp, const Layout& L, const CollArgs& a,
                                          int64_t unit_bytes, const MachineFigures* machine);

// What the knobs force on the hierarchical path (runtime/settings.h), by
// name; empty: the rules decide.
struct HierForced {
  std::string composition;  // HIERCOLL_<OP>_COMPOSITION
  std::string inter;        // HIERCOLL_<OP>_INTER_ALGORITHM
  // The composition where the forced one does not apply or none is forced
  // (the decided one, decide/decide.h); empty: the selection rules'.
  std::string otherwise = {};
};

// The composition for the call, interned (stable address, usable as a
// cache key); null when the call stays flat.  A forced composition is used
// where it applies (composition_applies), else forced.otherwise where that
// applies, else the selection rules pick;
// a forced inter-node algorithm is used where inter_algorithm_for gives
// one for the composition picked.  What was forced but could not be used
// is named in *unfit ("composition scan", "inter-node algorithm twotree",
// comma-separated; empty when everything forced is used).  `phases`
// chooses the phases nothing forces (HierChoice::phases).
const HierChoice* choose_composition(const Layout& L, const LayoutFacts& F, const CollArgs& a, int64_t unit_bytes,
                                     int64_t segment_bytes, const HierForced& forced = {},
                                     std::string* unfit = nullptr, const MachineFigures* machine = nullptr,
                                     const PhaseChooser* phases = nullptr);
// How many choices have been interned (one per composition, socket level,
// unit size, segment, forced algorithms and machine figures met): the
// memory study (hiercoll_memory) watches that it stays bounded.
size_t interned_choice_count();

// The composition the built-in rules pick for the call, nothing forced
// (null: flat): hier/hier_rules.cc.
const HierComposition* selected_composition(const Layout& L, const LayoutFacts& F, const CollArgs& a);

// "" when every name in the rule tables is a registered composition or
// flat algorithm, else the first that is not (tests).
std::string check_hier_tables();

// Rank a.rank's schedule of the composed collective.
Schedule build_composed(const HierChoice& ch, const Layout& L, const CollArgs& a);

}  // namespace hiercoll
