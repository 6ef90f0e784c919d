// A schedule is the list of steps one rank takes in one collective call:
// sends, receives, local copies and local reductions over ranges of three
// buffers (the user's send buffer, the user's receive buffer, scratch).
// Schedules are pure data; executors (MPI, in-process) run them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hiercoll {

// Which buffer a span lives in.  kSend is never written by a schedule.
enum class Buf : uint8_t { kSend = 0, kRecv = 1, kTmp = 2 };

// A range of a buffer in units.  A unit is one element of the call's
// datatype for reductions, one byte of the message for bcast (ranks may
// use different datatypes; runtime/plan_bcast.cc), one rank's block for block
// collectives (allgather, gather, scatter, alltoall); the executor knows
// the unit size.
struct Span {
  Buf buf = Buf::kTmp;
  int64_t off = 0;
  int64_t n = 0;
  int64_t end() const { return off + n; }
};

enum class StepKind : uint8_t { kSend, kRecv, kCopy, kReduce };

struct Step {
  StepKind kind = StepKind::kCopy;
  // kReduce: dst = src (op) dst when src_first, else dst = dst (op) src.
  // The order matters for non-commutative operations: src_first means the
  // data in src comes from lower ranks than the data in dst.
  bool src_first = true;
  int32_t peer = -1;  // kSend / kRecv: rank in the schedule's communicator;
                      // kCopy: -1, or the position of a relabelled copy
                      // (ScheduleBuilder::relabelled_copy)
  int32_t seq = 0;    // kSend / kRecv: index among messages to/from peer
  Span src, dst;      // kSend uses src, kRecv uses dst
  uint32_t dep_begin = 0, dep_count = 0;  // predecessors in Schedule::deps
};

struct Schedule {
  std::vector<Step> steps;
  std::vector<int32_t> deps;  // flattened predecessor lists
  int64_t tmp_units = 0;      // scratch the schedule needs

  // Successor lists and predecessor counts, filled by finalize(); executors
  // use them to start a step as soon as its predecessors are done.
  std::vector<int32_t> succ_begin, succ;
  std::vector<int32_t> pred_count;
  // Per step: for a receive, the last send to the same peer that comes
  // before it in the schedule, or -1 (and -1 for every other step).  The
  // MPI executor posts such a receive only once that send is posted, so an
  // exchange written "send, then receive" goes on the wire in that order
  // (executors/mpi_executor.cc says why).
  std::vector<int32_t> post_after;
  // No step waits for another: every message is posted at once and every
  // local step runs at the start (a linear gather's root, an alltoall's
  // batch).  The MPI executor then skips its readiness bookkeeping.
  bool one_round = false;
  // The steps by kind, each kind in schedule order: the first `sends` are
  // the sends, the next `receives` the receives, the rest local steps.
  std::vector<int32_t> by_kind;
  int32_t sends = 0, receives = 0;

  void finalize();
  // Human-readable listing, one step per line (for debugging and tests).
  std::string to_string() const;
};

const char* step_kind_name(StepKind k);

}  // namespace hiercoll
