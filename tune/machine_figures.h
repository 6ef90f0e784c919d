// The machine figures a tuning file records (select/machine.h), measured by
// the benchmark's ping-pong (measure/pingpong.h) and a timed local reduction.
#pragma once

#include <mpi.h>

#include "measure/machine.h"
#include "select/machine.h"

namespace hctune {

// Collective over ctrl; every rank gets the figures.
hiercoll::MachineFigures measure_machine(MPI_Comm ctrl, const hcbench::Machine& m);

}  // namespace hctune
