// The engine's pending events, earliest first; events of the same time in
// the order they were made (determinism).  24 bytes an event; ids are step ids or nodes, which fit
// an int32 (the engine checks).
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

namespace hiercoll {

enum class EventKind : uint8_t {
  kReduceDone,    // id: the reduce step, version: its rank
  kMessageDone,   // id: the send step of the message
  kLinkDrained,   // id: the node; stale unless version is the link's current one
};

struct Event {
  double time;
  uint64_t order;  // kind in the top 2 bits, then the sequence number
  int32_t id;
  uint32_t version;
  EventKind kind() const { return static_cast<EventKind>(order >> 62); }
};

class EventQueue {
 public:
  void push(double time, EventKind kind, int64_t id, uint32_t version = 0) {
    heap_.push(Event{time, (uint64_t(kind) << 62) | next_++, static_cast<int32_t>(id), version});
  }
  bool empty() const { return heap_.empty(); }
  double next_time() const { return heap_.top().time; }
  Event pop() {
    Event e = heap_.top();
    heap_.pop();
    return e;
  }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      if (a.time != b.time) return a.time > b.time;
      return (a.order & kSeqMask) > (b.order & kSeqMask);
    }
  };
  static constexpr uint64_t kSeqMask = (uint64_t{1} << 62) - 1;
  std::priority_queue<Event, std::vector<Event>, Later> heap_;
  uint64_t next_ = 0;
};

}  // namespace hiercoll
