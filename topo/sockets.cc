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

}  // namespace

int detect_socket(int local_rank, std::string* level) {
  const char* lv = std::getenv("HIERCOLL_SOCKET_LEVEL");
  *level = lv && *lv ? lv : "package";
  if (*level == "none") return 0;
  const hwloc_obj_type_t type = *level == "numa" ? HWLOC_OBJ_NUMANODE : HWLOC_OBJ_PACKAGE;
  if (*level != "numa" && *level != "package") *level = "package";

  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return -1;
  const char* synthetic = std::getenv("HIERCOLL_HWLOC_SYNTHETIC");
  if (synthetic && *synthetic && hwloc_topology_set_synthetic(topo, synthetic) != 0) synthetic = nullptr;
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return -1;
  }
  int result = 0;
  if (hwloc_get_nbobjs_by_type(topo, type) > 1) {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (synthetic && *synthetic) {
      const int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
      hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, local_rank % npu);
      hwloc_bitmap_copy(set, pu->cpuset);
    } else if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
      hwloc_bitmap_zero(set);
    }
    result = containing_object(topo, type, set);
    hwloc_bitmap_free(set);
  }
  hwloc_topology_destroy(topo);
  return result;
}

}  // namespace hiercoll
