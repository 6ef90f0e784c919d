#include "sim/message_matching.h"

#include <algorithm>

namespace hiercoll {

namespace {

struct SendKey {
  int32_t peer;
  int32_t seq;
  int64_t step;  // global id
  bool operator<(const SendKey& o) const { return peer != o.peer ? peer < o.peer : seq < o.seq; }
};

std::string message_text(int from, int to, int seq) {
  return "message #" + std::to_string(seq) + " from rank " + std::to_string(from) + " to rank " + std::to_string(to);
}

}  // namespace

std::vector<int64_t> number_steps(const std::vector<Schedule>& scheds) {
  std::vector<int64_t> first(scheds.size() + 1, 0);
  for (size_t r = 0; r < scheds.size(); ++r) first[r + 1] = first[r] + static_cast<int64_t>(scheds[r].steps.size());
  return first;
}

bool match_messages(const std::vector<Schedule>& scheds, const std::vector<int64_t>& first_step,
                    std::vector<int64_t>* partner, std::string* error) {
  const int p = static_cast<int>(scheds.size());
  partner->assign(static_cast<size_t>(first_step[p]), -1);
  // Every rank's sends, sorted by (peer, seq), one range per rank.
  std::vector<int64_t> first_send(p + 1, 0);
  for (int r = 0; r < p; ++r) {
    int64_t n = 0;
    for (const Step& s : scheds[r].steps) n += s.kind == StepKind::kSend;
    first_send[r + 1] = first_send[r] + n;
  }
  std::vector<SendKey> sends(static_cast<size_t>(first_send[p]));
  for (int r = 0; r < p; ++r) {
    SendKey* out = sends.data() + first_send[r];
    const std::vector<Step>& steps = scheds[r].steps;
    for (size_t i = 0; i < steps.size(); ++i)
      if (steps[i].kind == StepKind::kSend) *out++ = SendKey{steps[i].peer, steps[i].seq, first_step[r] + int64_t(i)};
    std::sort(sends.data() + first_send[r], out);
  }
  int64_t matched = 0;
  for (int q = 0; q < p; ++q) {
    const std::vector<Step>& steps = scheds[q].steps;
    for (size_t i = 0; i < steps.size(); ++i) {
      const Step& rs = steps[i];
      if (rs.kind != StepKind::kRecv) continue;
      const int r = rs.peer;
      if (r < 0 || r >= p) {
        *error = "rank " + std::to_string(q) + " receives from rank " + std::to_string(r) + ", outside the group";
        return false;
      }
      const SendKey key{q, rs.seq, 0};
      auto b = sends.begin() + first_send[r], e = sends.begin() + first_send[r + 1];
      auto it = std::lower_bound(b, e, key);
      if (it == e || it->peer != q || it->seq != rs.seq) {
        *error = message_text(r, q, rs.seq) + " is received but never sent";
        return false;
      }
      const Step& ss = scheds[r].steps[static_cast<size_t>(it->step - first_step[r])];
      if (ss.src.n != rs.dst.n) {
        *error = message_text(r, q, rs.seq) + ": " + std::to_string(ss.src.n) + " units sent, " +
                 std::to_string(rs.dst.n) + " received";
        return false;
      }
      const int64_t g = first_step[q] + int64_t(i);
      (*partner)[static_cast<size_t>(g)] = it->step;
      (*partner)[static_cast<size_t>(it->step)] = g;
      ++matched;
    }
  }
  if (matched != first_send[p]) {
    for (const SendKey& s : sends)
      if ((*partner)[static_cast<size_t>(s.step)] < 0) {
        const int r = static_cast<int>(std::upper_bound(first_step.begin(), first_step.end(), s.step) - first_step.begin()) - 1;
        *error = message_text(r, s.peer, s.seq) + " is sent but never received";
        return false;
      }
  }
  return true;
}

}  // namespace hiercoll
