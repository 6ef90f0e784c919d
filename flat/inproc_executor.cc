#include "flat/inproc_executor.h"

#include <map>
#include <sstream>
#include <tuple>

namespace hiercoll {

namespace {

using MsgKey = std::tuple<int, int, int>;  // (from, to, seq)

struct RankState {
  ScratchBuffer scratch;
  Buffers bufs;
  std::vector<int32_t> waiting;
  std::vector<int32_t> ready;
  std::vector<int32_t> blocked_recvs;  // receives whose message has not arrived
  int finished = 0;
};

std::string where(int rank, int step, const Schedule& s) {
  std::ostringstream os;
  os << "rank " << rank << " step " << step << " (" << step_kind_name(s.steps[step].kind) << " peer "
     << s.steps[step].peer << " seq " << s.steps[step].seq << ")";
  return os.str();
}

}  // namespace

bool run_inprocess(std::vector<InprocRank>& ranks, MPI_Op op, std::string* error) {
  const int p = static_cast<int>(ranks.size());
  std::vector<RankState> st(p);
  std::map<MsgKey, std::vector<char>> in_flight;
  for (int r = 0; r < p; ++r) {
    const Schedule& s = ranks[r].sched;
    st[r].bufs = ranks[r].bufs;
    if (s.tmp_units > 0) st[r].bufs[Buf::kTmp] = st[r].scratch.allocate(ranks[r].bufs[Buf::kTmp], s.tmp_units);
    st[r].waiting.assign(s.pred_count.begin(), s.pred_count.end());
    for (int i = static_cast<int>(s.steps.size()) - 1; i >= 0; --i)
      if (st[r].waiting[i] == 0) st[r].ready.push_back(i);
  }

  auto fail = [&](const std::string& msg) {
    if (error) *error = msg;
    return false;
  };

  bool progress = true;
  while (progress) {
    progress = false;
    for (int r = 0; r < p; ++r) {
      const Schedule& s = ranks[r].sched;
      RankState& rs = st[r];
      auto complete = [&](int id) {
        ++rs.finished;
        progress = true;
        for (int k = s.succ_begin[id]; k < s.succ_begin[id + 1]; ++k)
          if (--rs.waiting[s.succ[k]] == 0) rs.ready.push_back(s.succ[k]);
      };
      // Retry receives whose message may have arrived since.
      std::vector<int32_t> still_blocked;
      for (int id : rs.blocked_recvs) {
        const Step& stp = s.steps[id];
        if (in_flight.count(MsgKey{stp.peer, r, stp.seq})) rs.ready.push_back(id);
        else still_blocked.push_back(id);
      }
      rs.blocked_recvs.swap(still_blocked);

      while (!rs.ready.empty()) {
        const int id = rs.ready.back();
        rs.ready.pop_back();
        const Step& stp = s.steps[id];
        int rc = MPI_SUCCESS;
        switch (stp.kind) {
          case StepKind::kSend: {
            if (stp.peer < 0 || stp.peer >= p) return fail(where(r, id, s) + ": peer out of range");
            std::vector<char> bytes;
            rc = pack_span(rs.bufs, stp.src, &bytes);
            if (!in_flight.emplace(MsgKey{r, stp.peer, stp.seq}, std::move(bytes)).second)
              return fail(where(r, id, s) + ": duplicate message");
            complete(id);
            break;
          }
          case StepKind::kRecv: {
            if (stp.peer < 0 || stp.peer >= p) return fail(where(r, id, s) + ": peer out of range");
            auto it = in_flight.find(MsgKey{stp.peer, r, stp.seq});
            if (it == in_flight.end()) {
              rs.blocked_recvs.push_back(id);
              break;
            }
            std::vector<char> expect;
            rc = pack_span(rs.bufs, stp.dst, &expect);  // only its size is used
            if (rc == MPI_SUCCESS && expect.size() != it->second.size())
              return fail(where(r, id, s) + ": message size mismatch (sent " + std::to_string(it->second.size()) +
                          " bytes, receiving " + std::to_string(expect.size()) + ")");
            if (rc == MPI_SUCCESS) rc = unpack_span(rs.bufs, stp.dst, it->second);
            in_flight.erase(it);
            complete(id);
            break;
          }
          case StepKind::kCopy:
            rc = copy_span(rs.bufs, stp.src, stp.dst);
            complete(id);
            break;
          case StepKind::kReduce:
            rc = reduce_span(rs.bufs, stp.src, stp.dst, stp.src_first, op);
            complete(id);
            break;
        }
        if (rc != MPI_SUCCESS) return fail(where(r, id, s) + ": MPI error " + std::to_string(rc));
      }
    }
  }
  for (int r = 0; r < p; ++r) {
    if (st[r].finished != static_cast<int>(ranks[r].sched.steps.size())) {
      const Schedule& s = ranks[r].sched;
      std::string msg = "deadlock: rank " + std::to_string(r) + " finished " + std::to_string(st[r].finished) +
                        " of " + std::to_string(s.steps.size()) + " steps";
      if (!st[r].blocked_recvs.empty()) msg += "; waiting in " + where(r, st[r].blocked_recvs.front(), s);
      return fail(msg);
    }
  }
  if (!in_flight.empty()) {
    const MsgKey& k = in_flight.begin()->first;
    return fail("message from rank " + std::to_string(std::get<0>(k)) + " to rank " + std::to_string(std::get<1>(k)) +
                " seq " + std::to_string(std::get<2>(k)) + " was never received");
  }
  return true;
}

}  // namespace hiercoll
