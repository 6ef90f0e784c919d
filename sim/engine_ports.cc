// The simulator engine's ports: per rank a send, a receive and a reduce
// port, each serving one message or reduction at a time from its queue;
// at each moment the ranks whose ports may start something agree on which
// ready messages start (serve_touched).
#include "sim/engine_state.h"

namespace hiercoll {
namespace sim_engine {

// Ports serve messages in the order their steps became ready on that side
// (then in program order), as an MPI library serves the requests a rank
// posted, whenever the other side turns up.
// The order is that of this side's steps: the sends (outgoing) or their
// receives (incoming).
void Engine::insert(Fifo& f, bool incoming, int64_t g) {
  auto before = [&](int64_t a_key, int64_t b_key) {
    const double ta = st(a_key).clock.time, tb = st(b_key).clock.time;
    // Times a rounding error apart are one moment: program order decides.
    return apart(ta, tb) ? ta < tb : a_key < b_key;
  };
  auto key_of = [&](int64_t h) -> int64_t { return incoming ? st(h).partner : h; };
  const int64_t key_step = key_of(g);
  if (f.tail < 0 || !before(key_step, key_of(f.tail))) return push(f, incoming, g);
  int64_t prev = -1, h = f.head;
  while (h >= 0 && !before(key_step, key_of(h))) prev = h, h = link(h, incoming);
  link(g, incoming) = static_cast<int32_t>(h);
  if (prev >= 0) link(prev, incoming) = static_cast<int32_t>(g);
  else f.head = static_cast<int32_t>(g);
}

// The first message in rank r's queue of outgoing (out) or incoming
// messages whose other side's port is free, or -1; drops messages that
// started from the other side on the way.
int64_t Engine::first_startable(int r, bool out) {
  Fifo& f = out ? out_[r] : in_[r];
  int64_t prev = -1;
  for (int64_t g = f.head; g >= 0;) {
    const int32_t nxt = link(g, !out);
    if (st(g).ready >= 2) {
      if (prev >= 0) link(prev, !out) = nxt;
      else f.head = nxt;
      if (f.tail == g) f.tail = static_cast<int32_t>(prev);
    } else {
      const int from = out ? r : sender_of(g);
      const int to = out ? scheds_.peer(g) : r;
      if (out ? can_receive(to) : can_send(from)) return g;
      prev = g;
    }
    g = nxt;
  }
  return -1;
}

// first_startable(r, true), once per round: nothing starts while a round
// collects its proposals, and a sender is asked both as a touched rank and
// as the sender of a touched receiver's message (another scan of its queue,
// cache misses each).
int64_t Engine::first_outgoing(int r) {
  if (first_out_round_[r] != round_) {
    first_out_round_[r] = round_;
    first_out_[r] = static_cast<int32_t>(first_startable(r, true));
  }
  return first_out_[r];
}

Engine::Proposal Engine::proposal(int64_t send, int from) const {
  const int64_t recv = st(send).partner;
  return Proposal{scheds_.peer(send), st(recv).clock.time, recv, send, from};
}

// A receiver's choice between two proposals: the message whose receive
// became ready first (times a rounding error apart count as one), then the
// one earlier in its program (its posted order: a two-tree's colouring
// lives in it).
bool Engine::preferred(const Proposal& a, const Proposal& b) {
  if (apart(a.ready, b.ready)) return a.ready < b.ready;
  return a.recv < b.recv;
}

void Engine::try_reduce(int r) {
  if (reduce_busy_[r] || red_[r].head < 0) return;
  const int64_t g = red_[r].head;
  red_[r].head = st(g).next;
  if (red_[r].head < 0) red_[r].tail = -1;
  reduce_busy_[r] = 1;
  Clock& c = st(g).clock;
  c = later(c, reduce_free_[r]);
  c.time = now_;
  const int64_t bytes = scheds_.units(g) * input_.unit_bytes;
  const double us = double(bytes) * m_.gamma();
  CorePool* pool = pool_of(r);
  events_.push(pool ? pool->run(now_, us) : now_ + us, EventKind::kReduceDone, g, static_cast<uint32_t>(r));
}

void Engine::queue_initial_messages() {
  // Every key's time is 0 here, so the queues' order is the ids' order.
  std::vector<int32_t>& m = initial_messages_;
  std::sort(m.begin(), m.end());
  for (int32_t send : m) push(out_[sender_of(send)], false, send);
  std::sort(m.begin(), m.end(), [&](int32_t a, int32_t b) { return st(a).partner < st(b).partner; });
  for (int32_t send : m) {
    const int from = sender_of(send), to = scheds_.peer(send);
    push(in_[to], true, send);
    touch(from);
    touch(to);
  }
  m.clear();
  m.shrink_to_fit();
}

// The ports' decisions start at the heads of the ranks' queues, one cache
// miss each (a lockstep moment touches thousands of ranks): their loads
// start a few ranks early.  (Prefetching further, the next entries and an
// incoming message's sender's queue, cost more than it saved: its own
// loads of the heads wait.)
inline void Engine::prefetch_queues(size_t i) {
  constexpr size_t kFar = 8;
  auto fetch = [&](int64_t g) __attribute__((always_inline)) {
    if (g < 0) return;
    __builtin_prefetch(&st(g));
    scheds_.prefetch(g);
  };
  if (i + kFar < active_.size()) {
    const int r = active_[i + kFar];
    fetch(out_[r].head);
    fetch(in_[r].head);
  }
}

// Ports decide only once everything of this moment has happened, so that
// of the messages ready at one time the oldest goes first whatever order
// the engine saw them become ready in.
void Engine::serve_touched() {
  // Deferred acceptance in rounds: every free sender that a touched rank
  // could start a message with proposes its own first startable message
  // (senders serve their messages in the order they became ready, as MPI
  // progresses posted requests); each free receiver takes the proposal it
  // prefers; the others propose again next round, until nothing starts.
  // Ranks with nothing to propose drop out of the rounds (their ports only
  // get busier).
  active_.assign(touched_list_.begin(), touched_list_.end());
  for (;;) {
    proposals_.clear();
    ++round_;
    size_t keep = 0;
    for (size_t i = 0; i < active_.size(); ++i) {
      prefetch_queues(i);
      const int r = active_[i];
      bool proposed = false;
      if (can_send(r)) {
        const int64_t g = first_outgoing(r);
        if (g >= 0) proposals_.push_back(proposal(g, r)), proposed = true;
      }
      if (can_receive(r)) {
        const int64_t g = first_startable(r, false);
        if (g >= 0) {
          const int from = sender_of(g);
          proposals_.push_back(proposal(first_outgoing(from), from));
          proposed = true;
        }
      }
      if (proposed) active_[keep++] = r;
    }
    active_.resize(keep);
    if (proposals_.empty()) break;
    // Each receiver takes its preferred proposal (one pass, no sort).
    receivers_.clear();
    for (size_t i = 0; i < proposals_.size(); ++i) {
      int32_t& best = best_proposal_[proposals_[i].to];
      if (best < 0) receivers_.push_back(proposals_[i].to);
      if (best < 0 || preferred(proposals_[i], proposals_[best])) best = static_cast<int32_t>(i);
    }
    for (int to : receivers_) {
      const Proposal& pr = proposals_[best_proposal_[to]];
      best_proposal_[to] = -1;
      if (st(pr.send).ready == 1 && can_send(pr.from) && can_receive(pr.to))
        start_message(pr.send, pr.from, pr.to);
    }
  }
  for (int r : touched_list_) {
    touched_[r] = 0;
    try_reduce(r);
  }
  touched_list_.clear();
}

}  // namespace sim_engine
}  // namespace hiercoll
