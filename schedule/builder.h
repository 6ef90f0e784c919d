// ScheduleBuilder: generators describe one rank's part of an algorithm in
// program order; the builder turns buffer hazards (read-after-write,
// write-after-read, write-after-write on overlapping spans) into step
// dependencies, so independent steps overlap and dependent ones wait.
// Explicit extra dependencies cover what data does not show (barriers).
//
// A view maps a generator's local world onto the whole schedule: local peer
// ranks to ranks of the executing communicator, and its Send/Recv buffers to
// spans of the real buffers.  Hierarchical collectives run flat generators
// on sub-groups through views.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "schedule/schedule.h"

namespace hiercoll {

using Deps = std::vector<int>;  // step ids; -1 entries are ignored

struct BuilderView {
  const std::vector<int>* ranks = nullptr;  // local peer -> real peer; null = identity
  Buf send_buf = Buf::kSend;
  int64_t send_off = 0;
  Buf recv_buf = Buf::kRecv;
  int64_t recv_off = 0;
};

class ScheduleBuilder {
 public:
  // send_alias >= 0 says the call is in place: Send unit i is Recv unit
  // send_alias + i, so hazards on the two are tracked as one buffer.
  explicit ScheduleBuilder(int64_t send_alias = -1);

  int send(int peer, Span src, const Deps& extra = {});
  int recv(int peer, Span dst, const Deps& extra = {});
  // copy and reduce of zero units add nothing and return -1.
  int copy(Span src, Span dst, const Deps& extra = {});
  int reduce(Span src, Span dst, bool src_first, const Deps& extra = {});
  // A copy of one block between the user's buffer and scratch in an
  // arrival-order schedule: the user's side is the block of whichever rank
  // holds position `pos` (arrival/arrival_order.h), found by the executor.
  int relabelled_copy(int pos, Span src, Span dst, const Deps& extra = {});

  // A fresh scratch region of n units (never reused within one schedule).
  Span tmp(int64_t n);

  int num_steps() const { return static_cast<int>(sched_.steps.size()); }
  // Ids of every step added since `mark` (a previous num_steps()).
  Deps steps_since(int mark) const;

  const BuilderView& view() const { return view_; }
  void set_view(const BuilderView& v) { view_ = v; }

  Schedule finish();

 private:
  // Hazard bookkeeping: a buffer's accessed units as disjoint segments
  // (keyed by start), each with its last writer and the readers since.
  struct Segment {
    int64_t end;
    int32_t writer;
    std::vector<int32_t> readers;
  };
  using SegmentMap = std::map<int64_t, Segment>;

  Span map_span(Span s) const;
  int map_peer(int peer) const;
  int add(Step step, const Span* reads, int nreads, const Span* writes, int nwrites, const Deps& extra);
  // Which tracked buffer and offset a span lands on (null: untracked).
  SegmentMap* tracked(const Span& s, int64_t* off);
  void collect_hazards(const Span& s, bool write, std::vector<int32_t>* out);
  void record(const Span& s, bool write, int32_t step);

  Schedule sched_;
  BuilderView view_;
  int64_t send_alias_;
  SegmentMap recv_segs_, tmp_segs_;
  std::unordered_map<int32_t, int32_t> send_seq_, recv_seq_;  // next message number, per real peer
};

// Sends and receives that add nothing for an empty span (both sides of a
// message compute its size from the same layout, so both skip it).
inline int send_nonempty(ScheduleBuilder& b, int peer, Span s, const Deps& extra = {}) {
  return s.n > 0 ? b.send(peer, s, extra) : -1;
}
inline int recv_nonempty(ScheduleBuilder& b, int peer, Span s, const Deps& extra = {}) {
  return s.n > 0 ? b.recv(peer, s, extra) : -1;
}

// Sets a builder's view for a scope and restores the previous one.
class ScopedView {
 public:
  ScopedView(ScheduleBuilder& b, const BuilderView& v) : b_(b), saved_(b.view()) { b.set_view(v); }
  ~ScopedView() { b_.set_view(saved_); }
  ScopedView(const ScopedView&) = delete;
  ScopedView& operator=(const ScopedView&) = delete;

 private:
  ScheduleBuilder& b_;
  BuilderView saved_;
};

}  // namespace hiercoll
