// The simulator engine's event loop: checks the schedules, pairs their
// messages, starts the steps without predecessors and serves the events in
// time order until none is left; a step never reached is a deadlock.
#include "sim/engine.h"

#include <climits>

#include "sim/engine_state.h"
#include "sim/message_matching.h"

namespace hiercoll {
namespace sim_engine {

// The layout and the schedules agree, and step ids fit the state's int32s.
bool Engine::check_input(std::string* error) const {
  const int p = scheds_.ranks();
  if (static_cast<int>(input_.node_of->size()) != p) {
    *error = "the layout has " + std::to_string(input_.node_of->size()) + " ranks, the call " + std::to_string(p);
    return false;
  }
  if (scheds_.steps() >= INT32_MAX) {
    *error = "too many steps (" + std::to_string(scheds_.steps()) + "; at most 2^31)";
    return false;
  }
  return scheds_.fits(error);
}

// Every step's state, with its message's other side.
bool Engine::pair_messages(std::string* error) {
  const size_t n = static_cast<size_t>(scheds_.steps());
  std::vector<int32_t> partner;
  if (!match_messages(scheds_, &partner, error)) return false;
  state_.resize(n);
  for (size_t g = 0; g < n; ++g) state_[g].partner = partner[g];
  return true;
}

// Predecessor counts from the successor lists.
void Engine::count_predecessors() {
  for (int r = 0; r < scheds_.ranks(); ++r)
    for (int64_t g = scheds_.first(r); g < scheds_.first(r + 1); ++g)
      for (uint64_t k = scheds_.succ_begin(g); k < scheds_.succ_begin(g + 1); ++k)
        ++st(scheds_.first(r) + scheds_.succ(k)).waiting;
}

// Every rank's ports empty and free.
void Engine::reset_ports() {
  const int p = scheds_.ranks();
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
}

int Engine::node_count() const {
  int nodes = 0;
  for (int node : *input_.node_of) nodes = std::max(nodes, node + 1);
  return nodes;
}

// Steps without predecessors, listed before any runs (a copy completes
// at once and may free a later one).
void Engine::start_initial_steps() {
  const size_t n = state_.size();
  std::vector<int32_t> initial;
  for (size_t g = 0; g < n; ++g)
    if (state_[g].waiting == 0) initial.push_back(static_cast<int32_t>(g));
  starting_ = true;
  for (int32_t g : initial) became_ready(g, rank_of(g));
  starting_ = false;
  queue_initial_messages();
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

void Engine::handle(const Event& e) {
  switch (e.kind) {
    case EventKind::kReduceDone: reduce_done(e.id, static_cast<int>(e.version)); break;
    case EventKind::kMessageDone: message_done(e.id); break;
    case EventKind::kLinkDrained:
      if (links_->current(e)) {
        const int64_t send = links_->drain(e, now_, &events_);
        events_.push(now_ + m_.alpha_us, EventKind::kMessageDone, send);
        if (m_.latency_overlaps) send_freed(send);
      }
      break;
    case EventKind::kSendFree: send_freed(e.id); break;
    case EventKind::kHandshakeDone: transfer(e.id); break;
  }
}

void Engine::serve_events() {
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
    handle(e);
  }
}

// No event is left but some step never ran: the first such step says where.
bool Engine::report_deadlock(std::string* error) const {
  for (int r = 0; r < scheds_.ranks(); ++r)
    for (int64_t g = scheds_.first(r); g < scheds_.first(r + 1); ++g)
      if (st(g).waiting > 0 || st(g).ready == 1) {
        *error = "deadlock: rank " + std::to_string(r) + " never gets past step " +
                 std::to_string(g - scheds_.first(r)) + " (" + step_kind_name(scheds_.kind(g)) + ")";
        return false;
      }
  *error = "deadlock";
  return false;
}

void Engine::report(SimResult* out) const {
  SimResult r = result_;
  r.steps = scheds_.steps();
  r.time_us = last_.time;
  r.critical = TimeShares{last_.inter, last_.intra, last_.reduce};
  *out = r;
}

bool Engine::run(SimResult* out, std::string* error) {
  if (!check_input(error) || !pair_messages(error)) return false;
  count_predecessors();
  reset_ports();
  const int nodes = node_count();
  NodeLinks links(nodes, m_.bandwidth_gbps * 1e3, m_.burst_bytes);
  links_ = &links;
  if (m_.cores > 0) pools_.assign(m_.cores_shared_by_all ? 1 : static_cast<size_t>(nodes), CorePool(m_.cores));
  start_initial_steps();
  serve_events();
  if (done_ != scheds_.steps()) return report_deadlock(error);
  report(out);
  return true;
}

}  // namespace sim_engine

bool simulate(const SimInput& in, const CostModel& model, SimResult* out, std::string* error) {
  sim_engine::Engine e(in, model);
  return e.run(out, error);
}

}  // namespace hiercoll
