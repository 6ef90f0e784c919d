#include "fuzz/fuzz_comm.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace hiercoll::fuzz {

std::string case_mode(const FuzzCase& c) {
  static const char* const from_env = std::getenv("HIERCOLL_MODE");
  return from_env && *from_env ? from_env : c.mode;
}

bool hiercoll_off(const FuzzCase& c) { return case_mode(c) == "off"; }

namespace {

void set_hints(const FuzzCase& c, MPI_Comm comm) {
  MPI_Info info;
  MPI_Info_create(&info);
  const std::string op = op_name(schedule_op(c.api));
  MPI_Info_set(info, "hiercoll", case_mode(c).c_str());
  if (!c.algorithm.empty()) MPI_Info_set(info, ("hiercoll_" + op + "_algorithm").c_str(), c.algorithm.c_str());
  if (!c.composition.empty()) MPI_Info_set(info, ("hiercoll_" + op + "_composition").c_str(), c.composition.c_str());
  if (!c.inter_algorithm.empty())
    MPI_Info_set(info, ("hiercoll_" + op + "_inter_algorithm").c_str(), c.inter_algorithm.c_str());
  if (c.segment_bytes) MPI_Info_set(info, "hiercoll_segment_bytes", std::to_string(c.segment_bytes).c_str());
  if (!c.dynamic.empty()) MPI_Info_set(info, "hiercoll_dynamic", c.dynamic.c_str());
  if (!c.dynamic_leaders.empty()) MPI_Info_set(info, "hiercoll_dynamic_leaders", c.dynamic_leaders.c_str());
  if (c.online_tuning) MPI_Info_set(info, "hiercoll_online_tuning", "1");
  MPI_Comm_set_info(comm, info);
  MPI_Info_free(&info);
}

}  // namespace

MPI_Comm make_case_comm(const FuzzCase& c) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm comm = MPI_COMM_NULL;
  switch (c.comm) {
    case CommKind::kDup: MPI_Comm_dup(MPI_COMM_WORLD, &comm); break;
    case CommKind::kSplit:
      MPI_Comm_split(MPI_COMM_WORLD, c.color[rank] < 0 ? MPI_UNDEFINED : c.color[rank], c.key[rank], &comm);
      break;
    case CommKind::kCreateGroup: {
      if (std::find(c.members.begin(), c.members.end(), rank) == c.members.end()) break;
      MPI_Group world, group;
      MPI_Comm_group(MPI_COMM_WORLD, &world);
      MPI_Group_incl(world, int(c.members.size()), c.members.data(), &group);
      MPI_Comm_create_group(MPI_COMM_WORLD, group, /*tag=*/7, &comm);
      MPI_Group_free(&group);
      MPI_Group_free(&world);
      break;
    }
  }
  if (comm == MPI_COMM_NULL) return comm;
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  set_hints(c, comm);
  return comm;
}

}  // namespace hiercoll::fuzz
