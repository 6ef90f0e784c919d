// The links of the machine, by ping-pong between rank 0 and a rank of its
// own node (intra-node) and the lowest rank of the next node (inter-node):
// one-way time of 8 bytes (latency alpha) and of 4 MiB; bandwidth
// beta = (4 MiB - 8) / (t(4 MiB) - t(8)). Medians over round trips. Then
// the same figures with every link busy: each node's lowest rank sends to
// the next node's while receiving from the previous one's (a ring), so
// that the bound can also be given for a machine whose links are not
// independent (the emulated cluster's share two cores). Last, what one
// node's link carries: all ranks of rank 0's node send to the other node
// at once (they share its link; with tools/cluster.sh --nic, the model's
// rate).
// Collective over ctrl; rank 0 gets the figures.
#pragma once

#include <mpi.h>

#include <string>

#include "measure/machine.h"
#include "measure/results.h"

namespace hcbench {

Links measure_links(MPI_Comm ctrl, const Machine& machine);
// "inter-node: 17.2 µs, 1180 MB/s (ranks 0-2); intra-node: ..." for the header.
std::string describe_links(const Links& links, const Machine& machine);

}  // namespace hcbench
