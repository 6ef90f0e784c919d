// The socket level inside a node, from hwloc.
#pragma once

#include <string>

namespace hiercoll {

// HIERCOLL_SOCKET_LEVEL: "package" (default), "numa" or "none".  Returns
// false for any other value (runtime/settings.cc makes that a knob error;
// the topology then keeps the default).
bool parse_socket_level(const char* value, std::string* level);
// HIERCOLL_HWLOC_SYNTHETIC: whether hwloc accepts `spec` as a synthetic
// topology description.
bool valid_synthetic_topology(const char* spec);

// Which package (or NUMA domain) of its node this process runs on, and the
// level used, from HIERCOLL_SOCKET_LEVEL.  Returns -1 when the process is not
// bound inside one of them.
// HIERCOLL_HWLOC_SYNTHETIC="package:2 core:4 pu:1" makes hwloc describe a
// synthetic machine on which the process with node-local index i runs on
// processing unit i mod #PUs; tests use it to exercise the socket level on a
// one-package machine.
int detect_socket(int local_rank, std::string* level);

}  // namespace hiercoll
