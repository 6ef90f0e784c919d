// The phases of a composition chosen by the model of the machine: where
// nothing forces a phase's flat algorithm and the composition's kind does
// not fix it (hier/hier_compose.h PhaseChooser), each algorithm that fits
// the phase is simulated on the phase's own group (one rank on each of p
// nodes, or p ranks of one node) under the figures, and the cheapest runs.
// Where every node's ranks share the machine's cores (the emulated
// cluster), an intra-node phase is costed on its nodes' share of them, as
// all nodes run it at once.  A reduce-scatter's phase is costed by all
// its blocks' bytes as even blocks (every member knows them alike).
// Costs are kept per operation, level, group, size class and what the
// algorithms' restrictions read, so a phase is costed once per process.
#pragma once

#include "decide/figures.h"
#include "hier/hier_compose.h"

namespace hiercoll {

// The chooser of these figures: one per distinct figures, alive for the
// process (its address may key interned choices).
const PhaseChooser* model_phases(const Figures& fig);

}  // namespace hiercoll
