// The arrival protocol of arrival-order schedules (arrival/arrival_order.h)
// under MPI.  Every non-root sends the root a start message (SACK, no data)
// as it enters the call; the root hands out positions in fill order as
// SACKs complete (Placement) and tells
//  - the newcomer its position, who holds its peers already placed and
//    (by the number of those) how many updates will follow, and
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

#include "arrival/arrival_order.h"
#include "executors/arrival_hooks.h"
#include "executors/buffers.h"

namespace hiercoll {

// A group whose members (but the root) are chosen at run time: group index
// i goes to whichever of its candidates starts first (runtime/hier_arrival.cc:
// a node's first arrival leads it).  The root's side lists the candidates;
// a candidate's side learns whether it was chosen: the root's assignment
// reaches the chosen one, which at once tells its `mates` (the other
// candidates of its index, an empty message on the same tag); a mate that
// hears from it first was not chosen, and the sender is its `leader`.
struct Election {
  std::vector<int> candidates;  // root: the ranks that may start
  std::vector<int> index;       // root: the group index each candidate stands for
  std::vector<int> members;     // root: the group, -1 where nobody is chosen yet
  std::vector<int> mates;       // candidate: the other candidates of its index
  int leader = -1;              // candidate not chosen: who was chosen for its index
};

class ArrivalSession final : public ArrivalHooks {
 public:
  // `members`: the real ranks of the group the tree spans (the root among
  // them); null: the whole communicator.  `tag_base`: the call's
  // (executors/mpi_executor.h); the protocol uses its reserved tags.
  // `election` (then `members` is null): the root's, with the candidates,
  // or a candidate's, which start() fills in.  `node_of` (a hierarchical
  // tree, on the whole communicator): every rank's node, for placing nodes.
  ArrivalSession(const ArrivalTree& tree, int me, int root, MPI_Comm comm, int tag_base,
                 const std::vector<int>* members = nullptr, Election* election = nullptr,
                 const std::vector<int>* node_of = nullptr);
  // A non-root: sends its SACK and waits for its position.  The root posts
  // its SACK receives.  MPI error code.
  int start();
  // -1: a candidate not chosen (election->leader was).
  int position() const { return position_; }
  // The block of rank-indexed data that belongs to `rank` (a relabelled
  // copy's): its index in the group, which is its rank without `members`.
  int block_of(int rank) const override;
  Relabelling& labels() override { return labels_; }

  // The executor waits for these along with the schedule's own requests:
  // requests posted since it last took them, each with a handle for
  // completed().
  void take_posted(std::vector<MPI_Request>* reqs, std::vector<int32_t>* handles) override;
  bool busy() const override { return outstanding_ > 0; }
  // A request of ours completed: places a newcomer (root) or records an
  // update (others); steps that can now run go to `woken`.
  int completed(int32_t handle, std::vector<int32_t>* woken) override;

 private:
  int place(int rank, std::vector<int32_t>* woken);  // root
  int post_update_recv();                            // others
  int post(MPI_Request req, int32_t handle);

  static constexpr int32_t kAnnounced = 1;  // others' handles: 0 an update, 1 an announcement sent
  int member(int i) const { return members_ ? (*members_)[i] : i; }
  // The rank behind SACK handle h (root).
  int sender(int h) const { return election_ ? election_->candidates[h] : member(h); }

  const ArrivalTree& tree_;
  const std::vector<int>* members_;
  Election* election_;
  int sacks_;  // root: SACK receives (handles below it), sends have handle sacks_
  int me_, root_, p_;
  MPI_Comm comm_;
  int sack_tag_, info_tag_;
  int position_ = 0;
  Placement placement_;       // root: who takes which position
  int updates_left_ = 0;      // others: updates still to come
  int update_[2] = {0, 0};    // others: the update being received
  Relabelling labels_;
  std::deque<std::vector<int>> out_;  // root: messages until their sends complete
  std::vector<MPI_Request> posted_;
  std::vector<int32_t> handles_;
  int outstanding_ = 0;
};

// Runs one arrival-order call on this rank: the protocol, then the data
// phase of the position it gets (none for a candidate not chosen);
// `members`, `election` and `node_of` as for ArrivalSession.  MPI error code.
int execute_arrival_order(const ArrivalTree& tree, const Buffers& bufs, MPI_Op op, MPI_Comm comm, int tag_base, int me,
                          int root, const std::vector<int>* members = nullptr, Election* election = nullptr,
                          const std::vector<int>* node_of = nullptr);

}  // namespace hiercoll
