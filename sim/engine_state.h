// The simulator engine's state and its class, shared by the files that
// implement it (private to sim/engine*.cc): the event loop (engine.cc),
// what a step's events do (engine_steps.cc), and the ranks' ports, their
// queues and the choice of what starts on them (engine_ports.cc).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/compact_schedules.h"
#include "sim/cost_model.h"
#include "sim/engine.h"
#include "sim/event_queue.h"
#include "sim/node_links.h"

namespace hiercoll {
namespace sim_engine {

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

inline const Clock& later(const Clock& a, const Clock& b) { return b.time > a.time ? b : a; }

// Whether two moments are more than a rounding error apart.
inline bool apart(double a, double b) { return std::fabs(a - b) > kSameTime * std::max(1.0, std::fabs(a)); }

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
  // The pool of rank r's cores, or null where every rank has its own.
  CorePool* pool_of(int r) {
    if (pools_.empty()) return nullptr;
    return &pools_[m_.cores_shared_by_all ? 0 : static_cast<size_t>((*input_.node_of)[r])];
  }

  // run's stages and the event loop (sim/engine.cc).
  bool check_input(std::string* error) const;
  bool pair_messages(std::string* error);
  void count_predecessors();
  void reset_ports();
  int node_count() const;
  void start_initial_steps();
  void serve_events();
  void handle(const Event& e);
  void prefetch_ahead();
  bool report_deadlock(std::string* error) const;
  void report(SimResult* out) const;

  // A step's events (sim/engine_steps.cc).
  void complete(int64_t g, int r, const Clock& c);
  void became_ready(int64_t g, int r);
  void start_message(int64_t send, int from, int to);
  void transfer(int64_t send);
  void send_freed(int64_t send);
  void message_done(int64_t send);
  void reduce_done(int64_t g, int r);

  // The ports: their queues and what starts on them (sim/engine_ports.cc).
  void push(Fifo& f, bool incoming, int64_t g) {
    link(g, incoming) = -1;
    if (f.tail >= 0) link(f.tail, incoming) = static_cast<int32_t>(g);
    else f.head = static_cast<int32_t>(g);
    f.tail = static_cast<int32_t>(g);
  }
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
  // Whether rank r's port can start sending (receiving) a message: its
  // port of that direction is free, and under CostModel::simplex its
  // other one too (one port serves both).
  bool can_send(int r) const { return !send_busy_[r] && !(m_.simplex && recv_busy_[r]); }
  bool can_receive(int r) const { return !recv_busy_[r] && !(m_.simplex && send_busy_[r]); }
  // Rank r's ports may start something at this moment (serve_touched).
  void touch(int r) {
    if (touched_[r]) return;
    touched_[r] = 1;
    touched_list_.push_back(r);
  }
  void serve_touched();
  void try_reduce(int r);
  void queue_initial_messages();
  // Inlined: GCC deems a function of loads and prefetches pure, and drops
  // its calls.
  __attribute__((always_inline)) void prefetch_queues(size_t i);

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

}  // namespace sim_engine
}  // namespace hiercoll
