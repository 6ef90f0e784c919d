// The engine's pending events, earliest first; events of the same time in
// the order they were made (determinism).  Collectives run in lockstep:
// thousands of events share one time, so events are kept in one FIFO
// bucket per distinct time and only the distinct times sit in a heap (a
// heap of all events cost a dozen cache misses per event at 10^5 ranks).
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_map>
#include <vector>

namespace hiercoll {

enum class EventKind : uint8_t {
  kReduceDone,    // id: the reduce step, version: its rank
  kMessageDone,   // id: the send step of the message
  kLinkDrained,   // id: the node; stale unless version is the link's current one
  kSendFree,      // id: the send step whose bytes are out (CostModel::latency_overlaps)
  kHandshakeDone, // id: the send step of a rendezvous message, whose data may go now
};

// ids are step ids or nodes, which fit an int32 (the engine checks).
struct Event {
  double time;
  int32_t id;
  uint32_t version;
  EventKind kind;
};

class EventQueue {
 public:
  void push(double time, EventKind kind, int64_t id, uint32_t version = 0) {
    Bucket& b = buckets_[time];
    if (b.events.empty()) times_.push(time);
    b.events.push_back(Event{time, static_cast<int32_t>(id), version, kind});
  }
  bool empty() const { return times_.empty(); }
  double next_time() const { return times_.top(); }
  // The event `ahead` places after the next one, if it has the same time
  // (null otherwise): the engine loads its memory early.
  const Event* peek(size_t ahead) {
    const Bucket& b = current();
    const size_t i = b.next + ahead;
    return i < b.events.size() ? &b.events[i] : nullptr;
  }
  Event pop() {
    Bucket& b = current();
    const Event e = b.events[b.next++];
    if (b.next == b.events.size()) {
      buckets_.erase(times_.top());
      times_.pop();
      current_ = nullptr;
    }
    return e;
  }

 private:
  struct Bucket {
    std::vector<Event> events;
    size_t next = 0;  // events before it are popped
  };
  std::priority_queue<double, std::vector<double>, std::greater<double>> times_;
  // The earliest time's bucket (no hash lookup per event; the map's nodes
  // stay where they are).
  Bucket& current() {
    if (!current_ || current_time_ != times_.top()) {
      current_time_ = times_.top();
      current_ = &buckets_[current_time_];
    }
    return *current_;
  }
  std::unordered_map<double, Bucket> buckets_;
  Bucket* current_ = nullptr;
  double current_time_ = 0;
};

}  // namespace hiercoll
