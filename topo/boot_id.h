// Which physical machine a process runs on: the kernel's boot id, equal
// for every process of one machine whatever namespaces (the emulated
// cluster's nodes) they run in; the host name where the kernel has none.
#pragma once

#include <string>

namespace hiercoll {

std::string boot_id();

}  // namespace hiercoll
