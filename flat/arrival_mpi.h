// The arrival protocol of arrival-order schedules (flat/arrival_order.h)
// under MPI.  Every non-root sends the root a start message (SACK, no data)
// as it enters the call; the root hands out positions in fill order as
// SACKs complete and tells
//  - the newcomer its position and who holds its peers already placed, and
//  - each placed peer of the newcomer (the root excepted) who now holds
//    that position,
// so a process learns whom it receives from and sends to as soon as that is
// known.  The root posts one SACK receive per rank (not MPI_ANY_SOURCE), so
// a fast rank's SACK for the next call cannot be taken for a slow rank's in
// this one; per sender, MPI keeps messages in order.
#pragma once

#include <mpi.h>

#include <deque>
#include <vector>

#include "flat/arrival_order.h"
#include "flat/buffers.h"

namespace hiercoll {

class ArrivalSession {
 public:
  // `members`: the real ranks of the group the tree spans (the root among
  // them); null: the whole communicator.  `tag_base`: the call's
  // (flat/mpi_executor.h); the protocol uses its reserved tags.
  ArrivalSession(const ArrivalTree& tree, int me, int root, MPI_Comm comm, int tag_base,
                 const std::vector<int>* members = nullptr);
  // A non-root: sends its SACK and waits for its position.  The root posts
  // its SACK receives.  MPI error code.
  int start();
  int position() const { return position_; }
  Relabelling& labels() { return labels_; }

  // The executor waits for these along with the schedule's own requests:
  // requests posted since it last took them, each with a handle for
  // completed().
  void take_posted(std::vector<MPI_Request>* reqs, std::vector<int32_t>* handles);
  bool busy() const { return outstanding_ > 0; }
  // A request of ours completed: places a newcomer (root) or records an
  // update (others); steps that can now run go to `woken`.
  int completed(int32_t handle, std::vector<int32_t>* woken);

 private:
  int place(int rank, std::vector<int32_t>* woken);  // root
  int post_update_recv();                            // others
  int post(MPI_Request req, int32_t handle);

  int member(int i) const { return members_ ? (*members_)[i] : i; }

  const ArrivalTree& tree_;
  const std::vector<int>* members_;
  int me_, root_, p_;
  MPI_Comm comm_;
  int sack_tag_, info_tag_;
  int position_ = 0;
  int placed_ = 1;            // root: positions handed out
  int updates_left_ = 0;      // others: updates still to come
  int update_[2] = {0, 0};    // others: the update being received
  Relabelling labels_;
  std::deque<std::vector<int>> out_;  // root: messages until their sends complete
  std::vector<MPI_Request> posted_;
  std::vector<int32_t> handles_;
  int outstanding_ = 0;
};

// Runs one arrival-order call on this rank: the protocol, then the data
// phase of the position it gets; `members` as for ArrivalSession.  MPI
// error code.
int execute_arrival_order(const ArrivalTree& tree, const Buffers& bufs, MPI_Op op, MPI_Comm comm, int tag_base, int me,
                          int root, const std::vector<int>* members = nullptr);

}  // namespace hiercoll
