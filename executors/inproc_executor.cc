#include "executors/inproc_executor.h"

#include "arrival/arrival_order.h"

#include <deque>
#include <map>
#include <sstream>
#include <tuple>

namespace hiercoll {

namespace {

using MsgKey = std::tuple<int, int, int>;  // (from, to, seq)

struct RankState {
  ScratchBuffer scratch;
  Buffers bufs;
  std::vector<int32_t> waiting;  // unfinished predecessors per step
  int finished = 0;
  Relabelling labels;  // arrival-order runs: who holds each position
};

struct PostedSend {
  int step;
  std::vector<char> bytes;
};

std::string where(int rank, int step, const Schedule& s) {
  std::ostringstream os;
  const Step& st = s.steps[step];
  os << "rank " << rank << " step " << step << " (" << step_kind_name(st.kind) << " peer " << st.peer << " seq "
     << st.seq << ")";
  return os.str();
}

}  // namespace

namespace {

// Messages complete like synchronous sends: a send is done only when its
// receive has been posted, and both complete together.  MPI may buffer
// small messages, but large ones wait for the receiver (rendezvous), so a
// schedule that only works with buffering would hang under MPI; this
// executor reports it as a deadlock instead.
class InprocRun {
 public:
  InprocRun(std::vector<InprocRank>& ranks, MPI_Op op, const InprocArrival* arrival)
      : ranks_(ranks), p_(static_cast<int>(ranks.size())), op_(op), commutative_(commutes(op)), arrival_(arrival),
        st_(p_) {
    for (int r = 0; r < p_; ++r) {
      const Schedule& s = ranks_[r].sched;
      st_[r].bufs = ranks_[r].bufs;
      if (s.tmp_units > 0) st_[r].bufs[Buf::kTmp] = st_[r].scratch.allocate(ranks_[r].bufs[Buf::kTmp], s.tmp_units);
      st_[r].waiting.assign(s.pred_count.begin(), s.pred_count.end());
      st_[r].labels.reset(arrival_ ? p_ : 0);
      if (!arrival_) enter(r);
    }
  }

  // Runs every ready step until none is left (and, in arrival order, every
  // rank has entered); "" or what went wrong.
  std::string run() {
    while (!ready_.empty() || (arrival_ && entered_ < arrival_->order.size())) {
      if (ready_.empty()) {
        enter_next();
        continue;
      }
      const auto [r, id] = ready_.front();
      ready_.pop_front();
      const std::string why = run_step(r, id);
      if (!why.empty()) return why;
    }
    return deadlock();
  }

 private:
  void enter(int r) {
    const Schedule& s = ranks_[r].sched;
    for (size_t i = 0; i < s.steps.size(); ++i)
      if (st_[r].waiting[i] == 0) ready_.emplace_back(r, static_cast<int>(i));
  }

  // Arrival order: the next rank enters when the others can go no further.
  // Its position becomes known to everyone, waking the steps waiting for it.
  void enter_next() {
    const int r = arrival_->order[entered_++];
    const int pos = arrival_->position[r];
    for (int q = 0; q < p_; ++q)
      for (int32_t id : st_[q].labels.assign(pos, r)) ready_.emplace_back(q, id);
    enter(r);
  }

  void complete(int r, int id) {
    const Schedule& s = ranks_[r].sched;
    ++st_[r].finished;
    for (int k = s.succ_begin[id]; k < s.succ_begin[id + 1]; ++k)
      if (--st_[r].waiting[s.succ[k]] == 0) ready_.emplace_back(r, s.succ[k]);
  }

  // Delivers a matched message into the receiver's span; "" or why not.
  std::string deliver(int to, int recv_step, const std::vector<char>& bytes) {
    const Span& dst = ranks_[to].sched.steps[recv_step].dst;
    std::vector<char> expect;
    int rc = pack_span(st_[to].bufs, dst, &expect);  // only its size is used
    if (rc == MPI_SUCCESS && expect.size() != bytes.size())
      return where(to, recv_step, ranks_[to].sched) + ": message size mismatch (sent " + std::to_string(bytes.size()) +
             " bytes, receiving " + std::to_string(expect.size()) + ")";
    if (rc == MPI_SUCCESS) rc = unpack_span(st_[to].bufs, dst, bytes);
    return rc == MPI_SUCCESS ? "" : where(to, recv_step, ranks_[to].sched) + ": MPI error " + std::to_string(rc);
  }

  std::string send(int r, int id, const Step& stp) {
    const MsgKey key{r, stp.peer, stp.seq};
    PostedSend ps{id, {}};
    const int rc = pack_span(st_[r].bufs, stp.src, &ps.bytes);
    if (rc != MPI_SUCCESS) return where(r, id, ranks_[r].sched) + ": MPI error " + std::to_string(rc);
    auto it = recvs_.find(key);
    if (it == recvs_.end()) {
      return sends_.emplace(key, std::move(ps)).second ? "" : where(r, id, ranks_[r].sched) + ": duplicate message";
    }
    const std::string why = deliver(stp.peer, it->second, ps.bytes);
    if (!why.empty()) return why;
    complete(stp.peer, it->second);
    recvs_.erase(it);
    complete(r, id);
    return "";
  }

  std::string recv(int r, int id, const Step& stp) {
    const MsgKey key{stp.peer, r, stp.seq};
    auto it = sends_.find(key);
    if (it == sends_.end())
      return recvs_.emplace(key, id).second ? "" : where(r, id, ranks_[r].sched) + ": duplicate receive";
    const std::string why = deliver(r, id, it->second.bytes);
    if (!why.empty()) return why;
    complete(stp.peer, it->second.step);
    sends_.erase(it);
    complete(r, id);
    return "";
  }

  // One ready step of rank r; in arrival order a step whose position is
  // not taken yet waits for it.
  std::string run_step(int r, int id) {
    const Schedule& s = ranks_[r].sched;
    Step stp = s.steps[id];
    if (arrival_ && step_position(stp) >= 0) {
      const int holder = st_[r].labels.rank(step_position(stp));
      if (holder < 0) {
        st_[r].labels.park(step_position(stp), id);
        return "";
      }
      if (stp.kind == StepKind::kCopy)
        relabel_copy(&stp.src, &stp.dst, holder);
      else
        stp.peer = holder;
    }
    const bool message = stp.kind == StepKind::kSend || stp.kind == StepKind::kRecv;
    if (message && (stp.peer < 0 || stp.peer >= p_)) return where(r, id, s) + ": peer out of range";
    if (stp.kind == StepKind::kSend) return send(r, id, stp);
    if (stp.kind == StepKind::kRecv) return recv(r, id, stp);
    const int rc = stp.kind == StepKind::kCopy
                       ? copy_span(st_[r].bufs, stp.src, stp.dst)
                       : reduce_span(st_[r].bufs, stp.src, stp.dst, stp.src_first || commutative_, op_);
    complete(r, id);
    return rc == MPI_SUCCESS ? "" : where(r, id, s) + ": MPI error " + std::to_string(rc);
  }

  // "" when every rank finished its steps, else where the first one hangs.
  std::string deadlock() const {
    for (int r = 0; r < p_; ++r) {
      const Schedule& s = ranks_[r].sched;
      if (st_[r].finished == static_cast<int>(s.steps.size())) continue;
      const std::string msg = "deadlock: rank " + std::to_string(r) + " finished " + std::to_string(st_[r].finished) +
                              " of " + std::to_string(s.steps.size()) + " steps";
      for (const auto& [key, step] : recvs_)
        if (std::get<1>(key) == r) return msg + "; waiting in " + where(r, step, s);
      for (const auto& [key, ps] : sends_)
        if (std::get<0>(key) == r) return msg + "; unmatched " + where(r, ps.step, s);
      return msg;
    }
    return "";
  }

  std::vector<InprocRank>& ranks_;
  const int p_;
  const MPI_Op op_;
  const bool commutative_;
  const InprocArrival* arrival_;
  std::vector<RankState> st_;
  std::map<MsgKey, PostedSend> sends_;
  std::map<MsgKey, int> recvs_;  // -> receiving step
  std::deque<std::pair<int, int>> ready_;
  size_t entered_ = 0;
};

}  // namespace

bool run_inprocess(std::vector<InprocRank>& ranks, MPI_Op op, std::string* error, const InprocArrival* arrival) {
  const std::string why = InprocRun(ranks, op, arrival).run();
  if (!why.empty() && error) *error = why;
  return why.empty();
}

}  // namespace hiercoll
