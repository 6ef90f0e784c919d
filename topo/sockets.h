// The socket level inside a node, from hwloc.
#pragma once

#include <string>

namespace hiercoll {

// Which package (or NUMA domain) of its node this process runs on, and the
// level used, from HIERCOLL_SOCKET_LEVEL: "package" (default), "numa" or
// "none".  Returns -1 when the process is not bound inside one of them.
// HIERCOLL_HWLOC_SYNTHETIC="package:2 core:4 pu:1" makes hwloc describe a
// synthetic machine on which the process with node-local index i runs on
// processing unit i mod #PUs; tests use it to exercise the socket level on a
// one-package machine.
int detect_socket(int local_rank, std::string* level);

}  // namespace hiercoll
