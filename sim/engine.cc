#include "sim/engine.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>

#include "sim/event_queue.h"
#include "sim/message_matching.h"
#include "sim/node_links.h"

namespace hiercoll {

namespace {

constexpr double kSameTime = 1e-9;  // relative

// A moment and the critical path that led to it (its shares sum to time;
// floats: shares need no more, and there is one Clock per step).  Packed
// to 20 bytes, so that a step's whole state fits 36 (x86 loads an
// unaligned double at full speed).
struct __attribute__((packed, aligned(4))) Clock {
  double time = 0;
  float inter = 0, intra = 0, reduce = 0;
};

// Everything the engine keeps of one step, in one record: a step's events
// touch it, its partner's and its successors', each one cache miss (one
// array per field cost one miss per field at 10^8 steps).
struct StepState {
  Clock clock;           // when ready (then: when started), and why
  int32_t waiting = 0;   // predecessors not done
  int32_t partner = -1;  // the message's other side (step ids fit an int32: checked)
  // The next step in the port queue this step waits in: a send's link in
  // its sender's queue, a reduction's in its rank's queue; a receive's is
  // its send's link in the receiver's queue (a receive waits in none).
  int32_t next = -1;
  uint8_t ready = 0;  // message steps: ready (1), started (2), transferred, handled by a core (3)
};
static_assert(sizeof(StepState) == 36, "a step's state stays small");

const Clock& later(const Clock& a, const Clock& b) { return b.time > a.time ? b : a; }

// Cores shared by a group of ranks (CostModel::cores): jobs come in time
// order (the engine's clock), each takes the core free first, so a
// min-heap of the cores' free times serves them first come first served.
class CorePool {
 public:
  explicit CorePool(int cores) : free_at_(static_cast<size_t>(cores), 0.0) {}
  // When a job of `us` arriving at `now` ends.
  double run(double now, double us) {
    std::pop_heap(free_at_.begin(), free_at_.end(), std::greater<double>());
    const double end = std::max(now, free_at_.back()) + us;
    free_at_.back() = end;
    std::push_heap(free_at_.begin(), free_at_.end(), std::greater<double>());
    return end;
  }

 private:
  std::vector<double> free_at_;
};

// An intrusive FIFO of step ids (messages or reductions waiting for a
// rank's port), linked through StepState::next (Engine::link).
struct Fifo {
  int32_t head = -1, tail = -1;
};

class Engine {
 public:
  Engine(const SimInput& in, const CostModel& m) : input_(in), m_(m), scheds_(*in.schedules) {}
  bool run(SimResult* out, std::string* error);

 private:
  int rank_of(int64_t g) const { return scheds_.rank_of(g); }
  StepState& st(int64_t g) { return state_[static_cast<size_t>(g)]; }
  const StepState& st(int64_t g) const { return state_[static_cast<size_t>(g)]; }
  // The sender of message `send` (its receive's peer): no search.
  int sender_of(int64_t send) const { return scheds_.peer(st(send).partner); }
  // Send `send`'s link in its sender's queue (incoming: in its receiver's).
  int32_t& link(int64_t g, bool incoming) { return incoming ? st(st(g).partner).next : st(g).next; }
  void complete(int64_t g, int r, const Clock& c);
  void became_ready(int64_t g, int r);
  void push(Fifo& f, bool incoming, int64_t g);
  void insert(Fifo& f, bool incoming, int64_t g);
  int64_t first_startable(int r, bool out);
  int64_t first_outgoing(int r);
  struct Proposal {
    int to;
    double ready;  // when the receive became ready
    int64_t recv, send;
    int from;
  };
  Proposal proposal(int64_t send, int from) const;
  static bool preferred(const Proposal& a, const Proposal& b);
  void try_reduce(int r);
  void start_message(int64_t send, int from, int to);
  void transfer(int64_t send);
  void message_done(int64_t send);
  void send_freed(int64_t send);
  void reduce_done(int64_t g, int r);
  void touch(int r);
  void serve_touched();
  void queue_initial_messages();
  void prefetch_ahead();
  // Inlined: GCC deems a function of loads and prefetches pure, and drops
  // its calls.
  __attribute__((always_inline)) void prefetch_queues(size_t i);
  // The pool of rank r's cores, or null where every rank has its own.
  CorePool* pool_of(int r) {
    if (pools_.empty()) return nullptr;
    return &pools_[m_.cores_shared_by_all ? 0 : static_cast<size_t>((*input_.node_of)[r])];
  }

  const SimInput& input_;
  const CostModel& m_;
  const CompactSchedules& scheds_;
  std::vector<StepState> state_;
  // Per rank: the send, receive and reduce ports.
  std::vector<Fifo> out_, in_, red_;  // messages out, messages in, reductions
  std::vector<uint8_t> send_busy_, recv_busy_, reduce_busy_;
  std::vector<Clock> send_free_, recv_free_, reduce_free_;
  std::vector<uint8_t> touched_;  // ranks whose ports may start something now
  std::vector<int> touched_list_;
  std::vector<Proposal> proposals_;
  std::vector<int> active_;
  std::vector<int32_t> best_proposal_;  // per rank: index into proposals_, -1 between rounds
  // Per rank: its first startable outgoing message in round first_out_round_.
  std::vector<int32_t> first_out_;
  std::vector<uint32_t> first_out_round_;
  uint32_t round_ = 0;  // of serve_touched's proposals (fewer than messages + moments)
  std::vector<int> receivers_;
  // Messages matched at time 0: queued in bulk (sorted once) rather than
  // one sorted insertion each, which costs a rank's number of messages
  // each when a pairwise exchange posts all of them at once.
  bool starting_ = false;
  std::vector<int32_t> initial_messages_;
  EventQueue events_;
  NodeLinks* links_ = nullptr;
  std::vector<CorePool> pools_;
  double now_ = 0;
  int64_t done_ = 0;
  Clock last_;
  SimResult result_;
};

void Engine::push(Fifo& f, bool incoming, int64_t g) {
  link(g, incoming) = -1;
  if (f.tail >= 0) link(f.tail, incoming) = static_cast<int32_t>(g);
  else f.head = static_cast<int32_t>(g);
  f.tail = static_cast<int32_t>(g);
}

// Ports serve messages in the order their steps became ready on that side
// (then in program order), as an MPI library serves the requests a rank
// posted, whenever the other side turns up.
// The order is that of this side's steps: the sends (outgoing) or their
// receives (incoming).
void Engine::insert(Fifo& f, bool incoming, int64_t g) {
  auto before = [&](int64_t a_key, int64_t b_key) {
    const double ta = st(a_key).clock.time, tb = st(b_key).clock.time;
    // Times a rounding error apart are one moment: program order decides.
    return std::fabs(ta - tb) > kSameTime * std::max(1.0, std::fabs(ta)) ? ta < tb : a_key < b_key;
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

void Engine::complete(int64_t g, int r, const Clock& c) {
  ++done_;
  if (c.time >= last_.time) last_ = c;
  const int64_t base = scheds_.first(r);
  for (uint64_t k = scheds_.succ_begin(g), end = scheds_.succ_begin(g + 1); k < end; ++k) {
    const int64_t h = base + scheds_.succ(k);
    StepState& hs = st(h);
    if (c.time >= hs.clock.time) hs.clock = c;
    if (--hs.waiting == 0) became_ready(h, r);
  }
}

void Engine::became_ready(int64_t g, int r) {
  const StepKind kind = scheds_.kind(g);
  switch (kind) {
    case StepKind::kCopy:
      complete(g, r, st(g).clock);
      return;
    case StepKind::kReduce:
      push(red_[r], false, g);
      touch(r);
      return;
    case StepKind::kSend:
    case StepKind::kRecv: {
      st(g).ready = 1;
      const int64_t other = st(g).partner;
      if (!st(other).ready) return;
      const bool sending = kind == StepKind::kSend;
      const int64_t send = sending ? g : other;
      const int from = sending ? r : scheds_.peer(g);
      const int to = sending ? scheds_.peer(g) : r;
      if (starting_) {  // queued in order once every step ready at the start is known
        initial_messages_.push_back(static_cast<int32_t>(send));
      } else {
        insert(out_[from], false, send);
        insert(in_[to], true, send);
      }
      touch(from);
      touch(to);
      return;
    }
  }
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
      if (!(out ? recv_busy_[to] : send_busy_[from])) return g;
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
  if (std::fabs(a.ready - b.ready) > kSameTime * std::max(1.0, std::fabs(a.ready))) return a.ready < b.ready;
  return a.recv < b.recv;
}

void Engine::start_message(int64_t send, int from, int to) {
  StepState& s = st(send);
  s.ready = 2;
  send_busy_[from] = recv_busy_[to] = 1;
  // It starts now because of whichever of its four conditions came last.
  Clock& c = s.clock;
  c = later(later(c, st(s.partner).clock), later(send_free_[from], recv_free_[to]));
  c.time = now_;
  ++result_.messages;
  const double handshake =
      m_.handshake_us(double(scheds_.units(send) * input_.unit_bytes), (*input_.node_of)[from] == (*input_.node_of)[to]);
  if (handshake > 0)
    events_.push(now_ + handshake, EventKind::kHandshakeDone, send);
  else
    transfer(send);
}

// The message's data go: through shared memory, or its node's link.
void Engine::transfer(int64_t send) {
  const int from = sender_of(send);
  const int to = scheds_.peer(send);
  const int64_t bytes = scheds_.units(send) * input_.unit_bytes;
  const int node = (*input_.node_of)[from];
  if (node == (*input_.node_of)[to]) {
    events_.push(now_ + m_.shm_alpha_us + double(bytes) * m_.shm_beta(), EventKind::kMessageDone, send);
    if (m_.latency_overlaps) events_.push(now_ + double(bytes) * m_.shm_beta(), EventKind::kSendFree, send);
    return;
  }
  ++result_.inter_messages;
  result_.inter_bytes += bytes;
  const double charged = links_->charged_bytes(node, double(bytes), now_);
  if (charged == 0) {
    events_.push(now_ + m_.alpha_us, EventKind::kMessageDone, send);
    if (m_.latency_overlaps) events_.push(now_, EventKind::kSendFree, send);
  } else {
    links_->add(node, send, charged, now_, &events_);
  }
}

// The message's bytes are out: its sender may send the next one, and its
// send step is done (CostModel::latency_overlaps).
void Engine::send_freed(int64_t send) {
  const int from = sender_of(send);
  Clock c = st(send).clock;
  const double took = now_ - c.time;
  ((*input_.node_of)[from] == (*input_.node_of)[scheds_.peer(send)] ? c.intra : c.inter) += static_cast<float>(took);
  c.time = now_;
  send_busy_[from] = 0;
  send_free_[from] = c;
  complete(send, from, c);
  touch(from);
}

void Engine::message_done(int64_t send) {
  const int from = sender_of(send);
  const int to = scheds_.peer(send);
  // Transferred: now the receiver's handling, once a core is free.
  if (CorePool* pool = pool_of(to); pool && st(send).ready == 2) {
    st(send).ready = 3;
    events_.push(pool->run(now_, m_.message_cpu_us), EventKind::kMessageDone, send);
    return;
  }
  const int64_t recv = st(send).partner;
  Clock c = st(send).clock;
  const double took = now_ - c.time;
  ((*input_.node_of)[from] == (*input_.node_of)[to] ? c.intra : c.inter) += static_cast<float>(took);
  c.time = now_;
  recv_busy_[to] = 0;
  recv_free_[to] = c;
  if (!m_.latency_overlaps) {  // else the send is done already (send_freed)
    send_busy_[from] = 0;
    send_free_[from] = c;
    complete(send, from, c);
    touch(from);
  }
  complete(recv, to, c);
  touch(to);
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

void Engine::reduce_done(int64_t g, int r) {
  Clock c = st(g).clock;
  c.reduce += static_cast<float>(now_ - c.time);
  c.time = now_;
  reduce_busy_[r] = 0;
  reduce_free_[r] = c;
  complete(g, r, c);
  touch(r);
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

// At 10^8 steps the engine waits on memory: a finished message touches its
// two steps' state and records and their successors', each a cache miss,
// and the thousands of events of one lockstep moment do not share them.
// Their loads start a few events early, in stages, each using what the
// one before loaded: the steps' state and records (the send's state holds
// where its receive is), then the receive's and the successor lists, then
// the first successors' state.
void Engine::prefetch_ahead() {
  constexpr size_t kFar = 16, kMid = 11, kNear = 6, kNext = 3;
  const StepState* base = state_.data();  // one past the last step is a valid address to prefetch
  auto steps_of = [](const Event* e) { return e && e->kind != EventKind::kLinkDrained; };
  if (const Event* far = events_.peek(kFar); steps_of(far)) {
    __builtin_prefetch(base + far->id);
    scheds_.prefetch(far->id);
  }
  if (const Event* mid = events_.peek(kMid); steps_of(mid)) {
    scheds_.prefetch_succ(mid->id);
    if (mid->kind == EventKind::kMessageDone) {
      const int64_t recv = st(mid->id).partner;
      __builtin_prefetch(base + recv);
      scheds_.prefetch(recv);
    }
  }
  if (const Event* near = events_.peek(kNear); near && near->kind == EventKind::kMessageDone) {
    const int64_t recv = st(near->id).partner;
    scheds_.prefetch_succ(recv);
    __builtin_prefetch(base + recv + 1);  // the successors of both sides, as a rule
    __builtin_prefetch(base + near->id + 1);
  }
  if (const Event* next = events_.peek(kNext); steps_of(next)) {
    // The first successor of the event's step, and of its receive.
    auto first_succ = [&](int64_t g, int r) __attribute__((always_inline)) {
      const uint64_t k = scheds_.succ_begin(g);
      if (k < scheds_.succ_begin(g + 1)) __builtin_prefetch(base + scheds_.first(r) + scheds_.succ(k));
    };
    if (next->kind == EventKind::kReduceDone) {
      first_succ(next->id, static_cast<int>(next->version));
    } else {
      const int64_t recv = st(next->id).partner;
      first_succ(next->id, scheds_.peer(recv));
      if (next->kind == EventKind::kMessageDone) first_succ(recv, scheds_.peer(next->id));
    }
  }
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

void Engine::touch(int r) {
  if (touched_[r]) return;
  touched_[r] = 1;
  touched_list_.push_back(r);
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
      if (!send_busy_[r]) {
        const int64_t g = first_outgoing(r);
        if (g >= 0) proposals_.push_back(proposal(g, r)), proposed = true;
      }
      if (!recv_busy_[r]) {
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
      if (st(pr.send).ready == 1 && !send_busy_[pr.from] && !recv_busy_[pr.to])
        start_message(pr.send, pr.from, pr.to);
    }
  }
  for (int r : touched_list_) {
    touched_[r] = 0;
    try_reduce(r);
  }
  touched_list_.clear();
}

bool Engine::run(SimResult* out, std::string* error) {
  const int p = scheds_.ranks();
  if (static_cast<int>(input_.node_of->size()) != p) {
    *error = "the layout has " + std::to_string(input_.node_of->size()) + " ranks, the call " + std::to_string(p);
    return false;
  }
  if (scheds_.steps() >= INT32_MAX) {
    *error = "too many steps (" + std::to_string(scheds_.steps()) + "; at most 2^31)";
    return false;
  }
  if (!scheds_.fits(error)) return false;
  const size_t n = static_cast<size_t>(scheds_.steps());
  {
    std::vector<int32_t> partner;
    if (!match_messages(scheds_, &partner, error)) return false;
    state_.resize(n);
    for (size_t g = 0; g < n; ++g) state_[g].partner = partner[g];
  }
  // Predecessor counts from the successor lists.
  for (int r = 0; r < p; ++r)
    for (int64_t g = scheds_.first(r); g < scheds_.first(r + 1); ++g)
      for (uint64_t k = scheds_.succ_begin(g); k < scheds_.succ_begin(g + 1); ++k)
        ++st(scheds_.first(r) + scheds_.succ(k)).waiting;
  out_.assign(p, Fifo{});
  in_.assign(p, Fifo{});
  red_.assign(p, Fifo{});
  send_busy_.assign(p, 0);
  recv_busy_.assign(p, 0);
  reduce_busy_.assign(p, 0);
  touched_.assign(p, 0);
  best_proposal_.assign(p, -1);
  first_out_.assign(p, -1);
  first_out_round_.assign(p, 0);
  send_free_.assign(p, Clock{});
  recv_free_.assign(p, Clock{});
  reduce_free_.assign(p, Clock{});
  int nodes = 0;
  for (int node : *input_.node_of) nodes = std::max(nodes, node + 1);
  NodeLinks links(nodes, m_.bandwidth_gbps * 1e3, m_.burst_bytes);
  links_ = &links;
  if (m_.cores > 0) pools_.assign(m_.cores_shared_by_all ? 1 : static_cast<size_t>(nodes), CorePool(m_.cores));

  // Steps without predecessors, listed before any runs (a copy completes
  // at once and may free a later one).
  std::vector<int32_t> initial;
  for (size_t g = 0; g < n; ++g)
    if (state_[g].waiting == 0) initial.push_back(static_cast<int32_t>(g));
  starting_ = true;
  for (int32_t g : initial) became_ready(g, rank_of(g));
  starting_ = false;
  queue_initial_messages();

  for (;;) {
    // Events a rounding error apart are one moment: serve after all of them.
    if (!touched_list_.empty() &&
        (events_.empty() || events_.next_time() > now_ + kSameTime * std::max(1.0, std::fabs(now_))))
      serve_touched();
    if (events_.empty()) break;
    prefetch_ahead();
    const Event e = events_.pop();
    ++result_.events;
    now_ = e.time;
    switch (e.kind) {
      case EventKind::kReduceDone: reduce_done(e.id, static_cast<int>(e.version)); break;
      case EventKind::kMessageDone: message_done(e.id); break;
      case EventKind::kLinkDrained:
        if (links.current(e)) {
          const int64_t send = links.drain(e, now_, &events_);
          events_.push(now_ + m_.alpha_us, EventKind::kMessageDone, send);
          if (m_.latency_overlaps) send_freed(send);
        }
        break;
      case EventKind::kSendFree: send_freed(e.id); break;
      case EventKind::kHandshakeDone: transfer(e.id); break;
    }
  }
  if (done_ != static_cast<int64_t>(n)) {
    for (int r = 0; r < p; ++r)
      for (int64_t g = scheds_.first(r); g < scheds_.first(r + 1); ++g)
        if (st(g).waiting > 0 || st(g).ready == 1) {
          *error = "deadlock: rank " + std::to_string(r) + " never gets past step " +
                   std::to_string(g - scheds_.first(r)) + " (" + step_kind_name(scheds_.kind(g)) + ")";
          return false;
        }
    *error = "deadlock";
    return false;
  }
  result_.steps = static_cast<int64_t>(n);
  result_.time_us = last_.time;
  result_.critical = TimeShares{last_.inter, last_.intra, last_.reduce};
  *out = result_;
  return true;
}

}  // namespace

bool simulate(const SimInput& in, const CostModel& model, SimResult* out, std::string* error) {
  Engine e(in, model);
  return e.run(out, error);
}

}  // namespace hiercoll
