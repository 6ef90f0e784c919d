// What a step's events do in the simulator engine: a step becomes ready
// when its predecessors are done; a message starts, hands its data to
// shared memory or its node's link, frees its sender and ends at its
// receiver; a reduction ends; each end passes its clock on.
#include "sim/engine_state.h"

namespace hiercoll {
namespace sim_engine {

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

void Engine::start_message(int64_t send, int from, int to) {
  StepState& s = st(send);
  s.ready = 2;
  send_busy_[from] = recv_busy_[to] = 1;
  // It starts now because of whichever of its four conditions came last.
  Clock& c = s.clock;
  c = later(later(c, st(s.partner).clock), later(send_free_[from], recv_free_[to]));
  if (m_.simplex) c = later(c, later(recv_free_[from], send_free_[to]));  // one port each
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

void Engine::reduce_done(int64_t g, int r) {
  Clock c = st(g).clock;
  c.reduce += static_cast<float>(now_ - c.time);
  c.time = now_;
  reduce_busy_[r] = 0;
  reduce_free_[r] = c;
  complete(g, r, c);
  touch(r);
}

}  // namespace sim_engine
}  // namespace hiercoll
