#include "sim/message_matching.h"

#include <algorithm>

namespace hiercoll {

namespace {

struct SendKey {
  int32_t peer;
  int32_t seq;
  int32_t step;  // global id
  bool operator<(const SendKey& o) const { return peer != o.peer ? peer < o.peer : seq < o.seq; }
};

std::string message_text(int from, int to, int seq) {
  return "message #" + std::to_string(seq) + " from rank " + std::to_string(from) + " to rank " + std::to_string(to);
}

}  // namespace

bool match_messages(const CompactSchedules& s, std::vector<int32_t>* partner, std::string* error) {
  const int p = s.ranks();
  partner->assign(static_cast<size_t>(s.steps()), -1);
  // Every rank's sends, sorted by (peer, seq), one range per rank.
  std::vector<int64_t> first_send(p + 1, 0);
  for (int r = 0; r < p; ++r) {
    int64_t n = 0;
    for (int64_t g = s.first(r); g < s.first(r + 1); ++g) n += s.kind(g) == StepKind::kSend;
    first_send[r + 1] = first_send[r] + n;
  }
  std::vector<SendKey> sends(static_cast<size_t>(first_send[p]));
  for (int r = 0; r < p; ++r) {
    SendKey* out = sends.data() + first_send[r];
    for (int64_t g = s.first(r); g < s.first(r + 1); ++g)
      if (s.kind(g) == StepKind::kSend) *out++ = SendKey{s.peer(g), s.seq(g), static_cast<int32_t>(g)};
    std::sort(sends.data() + first_send[r], out);
  }
  int64_t matched = 0;
  for (int q = 0; q < p; ++q) {
    for (int64_t g = s.first(q); g < s.first(q + 1); ++g) {
      if (s.kind(g) != StepKind::kRecv) continue;
      const int r = s.peer(g);
      if (r < 0 || r >= p) {
        *error = "rank " + std::to_string(q) + " receives from rank " + std::to_string(r) + ", outside the group";
        return false;
      }
      const SendKey key{q, s.seq(g), 0};
      const SendKey* b = sends.data() + first_send[r];
      const SendKey* e = sends.data() + first_send[r + 1];
      const SendKey* it = std::lower_bound(b, e, key);
      if (it == e || it->peer != q || it->seq != key.seq) {
        *error = message_text(r, q, key.seq) + " is received but never sent";
        return false;
      }
      if (s.units(it->step) != s.units(g)) {
        *error = message_text(r, q, key.seq) + ": " + std::to_string(s.units(it->step)) + " units sent, " +
                 std::to_string(s.units(g)) + " received";
        return false;
      }
      (*partner)[static_cast<size_t>(g)] = it->step;
      (*partner)[static_cast<size_t>(it->step)] = static_cast<int32_t>(g);
      ++matched;
    }
  }
  if (matched != first_send[p]) {
    for (const SendKey& k : sends)
      if ((*partner)[static_cast<size_t>(k.step)] < 0) {
        *error = message_text(s.rank_of(k.step), k.peer, k.seq) + " is sent but never received";
        return false;
      }
  }
  return true;
}

}  // namespace hiercoll
