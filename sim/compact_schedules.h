// All ranks' schedules of one call in the few fields the engine needs (kind,
// peer, message number, units, successors): about 25 bytes a step against
// about 100 for schedule/schedule.h's Schedule with its spans and predecessor
// lists.  What the engine reads of a step lies in one 16-byte record (one
// cache miss, not one per field: at 10^8 steps the engine waits on memory).  Built one rank at a time, so a call of 10^5 ranks never holds
// more than one full Schedule.  Steps are numbered across ranks: rank r's
// step i is first(r) + i.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schedule/schedule.h"

namespace hiercoll {

class CompactSchedules {
 public:
  // Appends the next rank's schedule (finalized: successor lists filled).
  void add_rank(const Schedule& s);
  static CompactSchedules of(const std::vector<Schedule>& scheds);
  // Room for `steps` steps with `succs` successor entries: reserved
  // address space, which costs memory only where it is filled, so a
  // generous estimate saves the copies of growing (at 10^8 steps, seconds).
  void reserve(int64_t steps, int64_t succs);
  // Gives back the spare capacity of building (once every rank is in).
  void shrink();

  // False when a count does not fit the records (a message of 2^31 units
  // or more, 2^32 successor entries): *error says which.
  bool fits(std::string* error) const;

  int ranks() const { return static_cast<int>(first_.size()) - 1; }
  int64_t steps() const { return first_.back(); }
  int64_t first(int r) const { return first_[static_cast<size_t>(r)]; }
  // The rank that owns global step g.
  int rank_of(int64_t g) const;

  StepKind kind(int64_t g) const { return static_cast<StepKind>(step(g).kind); }
  int peer(int64_t g) const { return step(g).peer; }  // messages; -1 otherwise
  int seq(int64_t g) const { return seq_[static_cast<size_t>(g)]; }
  int64_t units(int64_t g) const { return step(g).units; }  // sent, received or reduced
  // Successors of g: global steps first(rank_of(g)) + succ(k), k in [succ_begin(g), succ_begin(g + 1)).
  uint64_t succ_begin(int64_t g) const { return step(g).succ_begin; }
  int32_t succ(uint64_t k) const { return succ_[static_cast<size_t>(k)]; }
  // Starts loading step g's record (the engine's prefetching).
  void prefetch(int64_t g) const { __builtin_prefetch(&steps_[static_cast<size_t>(g)]); }
  // Starts loading g's successor list (its record loaded already).
  void prefetch_succ(int64_t g) const { __builtin_prefetch(&succ_[step(g).succ_begin]); }

 private:
  struct StepRecord {
    int32_t peer;
    int32_t units;
    uint32_t succ_begin;
    uint8_t kind;
  };
  const StepRecord& step(int64_t g) const { return steps_[static_cast<size_t>(g)]; }

  std::vector<int64_t> first_ = {0};
  std::vector<StepRecord> steps_ = {StepRecord{-1, 0, 0, 0}};  // one past the last: its succ_begin ends the list
  std::vector<int32_t> seq_;  // message numbers, read only by the matching
  std::vector<int32_t> succ_;
  bool too_many_units_ = false;
};

}  // namespace hiercoll
