#include "arrival/arrival_mpi.h"

#include "executors/mpi_executor.h"

namespace hiercoll {

ArrivalSession::ArrivalSession(const ArrivalTree& tree, int me, int root, MPI_Comm comm, int tag_base,
                               const std::vector<int>* members, Election* election,
                               const std::vector<int>* node_of)
    : tree_(tree),
      members_(election && me == root ? &election->members : members),
      election_(election),
      sacks_(election && me == root ? static_cast<int>(election->candidates.size()) : tree.p),
      me_(me),
      root_(root),
      p_(tree.p),
      comm_(comm),
      // The call's reserved tags, above its steps' (executors/mpi_executor.h).
      sack_tag_(reserved_tag(tag_base, 0)),
      info_tag_(reserved_tag(tag_base, 1)),
      placement_(tree, root, node_of),
      labels_(tree.p) {}

int ArrivalSession::post(MPI_Request req, int32_t handle) {
  posted_.push_back(req);
  handles_.push_back(handle);
  ++outstanding_;
  return MPI_SUCCESS;
}

void ArrivalSession::take_posted(std::vector<MPI_Request>* reqs, std::vector<int32_t>* handles) {
  reqs->insert(reqs->end(), posted_.begin(), posted_.end());
  handles->insert(handles->end(), handles_.begin(), handles_.end());
  posted_.clear();
  handles_.clear();
}

int ArrivalSession::start() {
  // Two members: the other one is position 1 whatever the order, so there
  // is nothing to hand out and the data phase starts without the round trip.
  if (p_ == 2 && !election_) {
    const int other = member(0) == root_ ? member(1) : member(0);
    position_ = me_ == root_ ? 0 : 1;
    labels_.assign(0, root_);
    labels_.assign(1, me_ == root_ ? other : me_);
    return MPI_SUCCESS;
  }
  if (me_ == root_) {
    position_ = 0;
    labels_.assign(0, root_);
    for (int i = 0; i < sacks_; ++i) {
      if (sender(i) == root_) continue;
      MPI_Request req;
      const int rc = PMPI_Irecv(nullptr, 0, MPI_BYTE, sender(i), sack_tag_, comm_, &req);
      if (rc != MPI_SUCCESS) return rc;
      post(req, i);
    }
    return MPI_SUCCESS;
  }
  MPI_Request sack;
  int rc = PMPI_Isend(nullptr, 0, MPI_BYTE, root_, sack_tag_, comm_, &sack);
  if (rc != MPI_SUCCESS) return rc;
  // The assignment: my position, then (position, rank) of my placed peers;
  // a candidate may hear first from the one chosen instead of it (nothing
  // else reaches it on this tag before that: the chosen one announces
  // itself before it sends anything else).
  std::vector<int> msg(1 + 2 * p_);
  MPI_Status status;
  rc = PMPI_Recv(msg.data(), static_cast<int>(msg.size()), MPI_INT, election_ ? MPI_ANY_SOURCE : root_, info_tag_,
                 comm_, &status);
  if (rc == MPI_SUCCESS) rc = PMPI_Wait(&sack, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  if (status.MPI_SOURCE != root_) {
    position_ = -1;
    election_->leader = status.MPI_SOURCE;
    return MPI_SUCCESS;
  }
  int n = 0;
  MPI_Get_count(&status, MPI_INT, &n);
  position_ = msg[0];
  labels_.assign(position_, me_);
  for (int i = 1; i + 1 < n; i += 2) labels_.assign(msg[i], msg[i + 1]);
  if (election_)
    for (int mate : election_->mates) {
      MPI_Request req;
      rc = PMPI_Isend(nullptr, 0, MPI_INT, mate, info_tag_, comm_, &req);
      if (rc != MPI_SUCCESS) return rc;
      post(req, kAnnounced);
    }
  // Each peer not placed yet will be announced by an update.
  updates_left_ = static_cast<int>(tree_.peers[position_].size()) - (n - 1) / 2;
  return updates_left_ > 0 ? post_update_recv() : MPI_SUCCESS;
}

int ArrivalSession::post_update_recv() {
  MPI_Request req;
  const int rc = PMPI_Irecv(update_, 2, MPI_INT, root_, info_tag_, comm_, &req);
  return rc == MPI_SUCCESS ? post(req, 0) : rc;
}

int ArrivalSession::place(int rank, std::vector<int32_t>* woken) {
  const int pos = placement_.take(rank);
  for (int32_t id : labels_.assign(pos, rank)) woken->push_back(id);
  std::vector<int>& assignment = out_.emplace_back(std::vector<int>{pos});
  for (int u : tree_.peers[pos]) {
    if (labels_.rank(u) < 0) continue;
    assignment.push_back(u);
    assignment.push_back(labels_.rank(u));
  }
  MPI_Request req;
  int rc = PMPI_Isend(assignment.data(), static_cast<int>(assignment.size()), MPI_INT, rank, info_tag_, comm_, &req);
  if (rc != MPI_SUCCESS) return rc;
  post(req, sacks_);
  for (int u : tree_.peers[pos]) {
    if (u == 0 || labels_.rank(u) < 0) continue;
    std::vector<int>& update = out_.emplace_back(std::vector<int>{pos, rank});
    rc = PMPI_Isend(update.data(), 2, MPI_INT, labels_.rank(u), info_tag_, comm_, &req);
    if (rc != MPI_SUCCESS) return rc;
    post(req, sacks_);
  }
  return MPI_SUCCESS;
}

int ArrivalSession::completed(int32_t handle, std::vector<int32_t>* woken) {
  --outstanding_;
  if (me_ == root_) {
    if (handle >= sacks_) return MPI_SUCCESS;
    if (election_) {
      // The first of an index's candidates takes it; the others are told
      // by the one chosen (announce).
      int& chosen = election_->members[election_->index[handle]];
      if (chosen >= 0) return MPI_SUCCESS;
      chosen = sender(handle);
    }
    return place(sender(handle), woken);
  }
  if (handle == kAnnounced) return MPI_SUCCESS;
  for (int32_t id : labels_.assign(update_[0], update_[1])) woken->push_back(id);
  return --updates_left_ > 0 ? post_update_recv() : MPI_SUCCESS;
}

int ArrivalSession::block_of(int rank) const {
  if (!members_) return rank;
  for (int i = 0; i < p_; ++i)
    if ((*members_)[i] == rank) return i;
  return -1;
}

int execute_arrival_order(const ArrivalTree& tree, const Buffers& bufs, MPI_Op op, MPI_Comm comm, int tag_base, int me,
                          int root, const std::vector<int>* members, Election* election,
                          const std::vector<int>* node_of) {
  ArrivalSession session(tree, me, root, comm, tag_base, members, election, node_of);
  const int rc = session.start();
  if (rc != MPI_SUCCESS || session.position() < 0) return rc;
  return execute_schedule(tree.at[session.position()], bufs, op, comm, tag_base, nullptr, &session);
}

}  // namespace hiercoll
