// The figures the model decides from where no tuning file carries any
// (decide/figures.h), set once per process right after MPI_Init by
// HIERCOLL_FIGURES (environment only):
//
//   builtin (default)  the built-in figures (the emulated cluster's)
//   probe              a short probe over MPI_COMM_WORLD: ping-pongs between
//                      rank 0 and a rank of its node and the first rank of
//                      the next node, one reduction, the machines' CPUs;
//                      about 40 ms, and rank 0's figures go to
//                      every rank, so all decide alike without a message
//   FILE               a figures file (`hiercoll simulate --calibrate ...
//                      --figures-out FILE`), read by rank 0 and sent to all
//
// The figures are the machine's, not a communicator's: every communicator
// of the process decides from them.  A probe or a file that fails is said
// on stderr by rank 0 and the built-in figures apply; HIERCOLL_VERBOSE=1
// prints the figures taken.
#pragma once

#include <string>

#include "decide/figures.h"
#include "topo/topology.h"

namespace hiercoll {

// Collective over world (every process, right after MPI_Init).
void init_machine_figures(const std::string& knob, bool verbose, const Topology& world);

// The figures set at start-up, else the built-in ones.
const Figures& machine_figures();

}  // namespace hiercoll
