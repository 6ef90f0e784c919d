#include "topo/sockets.h"

#include <hwloc.h>

#include <cstdlib>
#include <cstring>

namespace hiercoll {

namespace {

// Index among objects of `type` of the one whose cpuset contains `set`.
int containing_object(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_cpuset_t set) {
  const int n = hwloc_get_nbobjs_by_type(topo, type);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, i);
    if (obj->cpuset && !hwloc_bitmap_iszero(set) && hwloc_bitmap_isincluded(set, obj->cpuset)) return i;
  }
  return -1;
}

// The machine as hwloc sees it, loaded once per process (a load takes
// milliseconds) and kept to the end; nullptr when hwloc fails.
hwloc_topology_t machine(bool* synthetic) {
  static bool is_synthetic = false;
  static hwloc_topology_t topo = [] {
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0) return hwloc_topology_t{nullptr};
    const char* spec = std::getenv("HIERCOLL_HWLOC_SYNTHETIC");
    is_synthetic = spec && *spec && hwloc_topology_set_synthetic(t, spec) == 0;
    if (hwloc_topology_load(t) != 0) {
      hwloc_topology_destroy(t);
      return hwloc_topology_t{nullptr};
    }
    return t;
  }();
  *synthetic = is_synthetic;
  return topo;
}

}  // namespace

bool parse_socket_level(const char* value, std::string* level) {
  const std::string v = value ? value : "";
  if (v.empty()) *level = "package";
  else if (v == "package" || v == "numa" || v == "none") *level = v;
  else return false;
  return true;
}

bool valid_synthetic_topology(const char* spec) {
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) != 0) return false;
  const bool ok = hwloc_topology_set_synthetic(t, spec) == 0;
  hwloc_topology_destroy(t);
  return ok;
}

int detect_socket(int local_rank, std::string* level) {
  if (!parse_socket_level(std::getenv("HIERCOLL_SOCKET_LEVEL"), level)) *level = "package";
  if (*level == "none") return 0;
  const hwloc_obj_type_t type = *level == "numa" ? HWLOC_OBJ_NUMANODE : HWLOC_OBJ_PACKAGE;

  bool synthetic = false;
  hwloc_topology_t topo = machine(&synthetic);
  if (!topo) return -1;
  int result = 0;
  if (hwloc_get_nbobjs_by_type(topo, type) > 1) {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (synthetic) {
      const int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
      hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, local_rank % npu);
      hwloc_bitmap_copy(set, pu->cpuset);
    } else if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
      hwloc_bitmap_zero(set);
    }
    result = containing_object(topo, type, set);
    hwloc_bitmap_free(set);
  }
  return result;
}

}  // namespace hiercoll
