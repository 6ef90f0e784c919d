#include "flat/inproc_executor.h"

#include "flat/arrival_order.h"

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

// Messages complete like synchronous sends: a send is done only when its
// receive has been posted, and both complete together.  MPI may buffer
// small messages, but large ones wait for the receiver (rendezvous), so a
// schedule that only works with buffering would hang under MPI; this
// executor reports it as a deadlock instead.
bool run_inprocess(std::vector<InprocRank>& ranks, MPI_Op op, std::string* error, const InprocArrival* arrival) {
  const int p = static_cast<int>(ranks.size());
  const bool commutative = commutes(op);
  std::vector<RankState> st(p);
  std::map<MsgKey, PostedSend> sends;
  std::map<MsgKey, int> recvs;  // -> receiving step
  std::deque<std::pair<int, int>> ready;

  auto fail = [&](const std::string& msg) {
    if (error) *error = msg;
    return false;
  };
  auto complete = [&](int r, int id) {
    const Schedule& s = ranks[r].sched;
    ++st[r].finished;
    for (int k = s.succ_begin[id]; k < s.succ_begin[id + 1]; ++k)
      if (--st[r].waiting[s.succ[k]] == 0) ready.emplace_back(r, s.succ[k]);
  };
  // Delivers a matched message into the receiver's span.
  auto deliver = [&](const MsgKey& key, int recv_step, const std::vector<char>& bytes, std::string* why) {
    const int to = std::get<1>(key);
    const Span& dst = ranks[to].sched.steps[recv_step].dst;
    std::vector<char> expect;
    int rc = pack_span(st[to].bufs, dst, &expect);  // only its size is used
    if (rc == MPI_SUCCESS && expect.size() != bytes.size()) {
      *why = where(to, recv_step, ranks[to].sched) + ": message size mismatch (sent " + std::to_string(bytes.size()) +
             " bytes, receiving " + std::to_string(expect.size()) + ")";
      return false;
    }
    if (rc == MPI_SUCCESS) rc = unpack_span(st[to].bufs, dst, bytes);
    if (rc != MPI_SUCCESS) *why = where(to, recv_step, ranks[to].sched) + ": MPI error " + std::to_string(rc);
    return rc == MPI_SUCCESS;
  };

  auto enter = [&](int r) {
    const Schedule& s = ranks[r].sched;
    for (size_t i = 0; i < s.steps.size(); ++i)
      if (st[r].waiting[i] == 0) ready.emplace_back(r, static_cast<int>(i));
  };
  for (int r = 0; r < p; ++r) {
    const Schedule& s = ranks[r].sched;
    st[r].bufs = ranks[r].bufs;
    if (s.tmp_units > 0) st[r].bufs[Buf::kTmp] = st[r].scratch.allocate(ranks[r].bufs[Buf::kTmp], s.tmp_units);
    st[r].waiting.assign(s.pred_count.begin(), s.pred_count.end());
    st[r].labels.reset(arrival ? p : 0);
    if (!arrival) enter(r);
  }
  size_t entered = 0;
  // Arrival order: the next rank enters when the others can go no further.
  // Its position becomes known to everyone, waking the steps waiting for it.
  auto enter_next = [&] {
    const int r = arrival->order[entered++];
    const int pos = arrival->position[r];
    for (int q = 0; q < p; ++q)
      for (int32_t id : st[q].labels.assign(pos, r)) ready.emplace_back(q, id);
    enter(r);
  };

  while (!ready.empty() || (arrival && entered < arrival->order.size())) {
    if (ready.empty()) {
      enter_next();
      continue;
    }
    const auto [r, id] = ready.front();
    ready.pop_front();
    const Schedule& s = ranks[r].sched;
    Step stp = s.steps[id];
    if (arrival && step_position(stp) >= 0) {
      const int holder = st[r].labels.rank(step_position(stp));
      if (holder < 0) {
        st[r].labels.park(step_position(stp), id);
        continue;
      }
      if (stp.kind == StepKind::kCopy)
        relabel_copy(&stp.src, &stp.dst, holder);
      else
        stp.peer = holder;
    }
    int rc = MPI_SUCCESS;
    std::string why;
    switch (stp.kind) {
      case StepKind::kSend: {
        if (stp.peer < 0 || stp.peer >= p) return fail(where(r, id, s) + ": peer out of range");
        const MsgKey key{r, stp.peer, stp.seq};
        PostedSend ps{id, {}};
        rc = pack_span(st[r].bufs, stp.src, &ps.bytes);
        if (rc != MPI_SUCCESS) break;
        auto it = recvs.find(key);
        if (it == recvs.end()) {
          if (!sends.emplace(key, std::move(ps)).second) return fail(where(r, id, s) + ": duplicate message");
          break;
        }
        if (!deliver(key, it->second, ps.bytes, &why)) return fail(why);
        complete(stp.peer, it->second);
        recvs.erase(it);
        complete(r, id);
        break;
      }
      case StepKind::kRecv: {
        if (stp.peer < 0 || stp.peer >= p) return fail(where(r, id, s) + ": peer out of range");
        const MsgKey key{stp.peer, r, stp.seq};
        auto it = sends.find(key);
        if (it == sends.end()) {
          if (!recvs.emplace(key, id).second) return fail(where(r, id, s) + ": duplicate receive");
          break;
        }
        if (!deliver(key, id, it->second.bytes, &why)) return fail(why);
        complete(stp.peer, it->second.step);
        sends.erase(it);
        complete(r, id);
        break;
      }
      case StepKind::kCopy:
        rc = copy_span(st[r].bufs, stp.src, stp.dst);
        complete(r, id);
        break;
      case StepKind::kReduce:
        rc = reduce_span(st[r].bufs, stp.src, stp.dst, stp.src_first || commutative, op);
        complete(r, id);
        break;
    }
    if (rc != MPI_SUCCESS) return fail(where(r, id, s) + ": MPI error " + std::to_string(rc));
  }

  for (int r = 0; r < p; ++r) {
    const Schedule& s = ranks[r].sched;
    if (st[r].finished == static_cast<int>(s.steps.size())) continue;
    std::string msg = "deadlock: rank " + std::to_string(r) + " finished " + std::to_string(st[r].finished) + " of " +
                      std::to_string(s.steps.size()) + " steps";
    for (const auto& [key, step] : recvs)
      if (std::get<1>(key) == r) return fail(msg + "; waiting in " + where(r, step, s));
    for (const auto& [key, ps] : sends)
      if (std::get<0>(key) == r) return fail(msg + "; unmatched " + where(r, ps.step, s));
    return fail(msg);
  }
  return true;
}

}  // namespace hiercoll
