// Runs one rank's schedule on a communicator with nonblocking
// point-to-point calls.  A step starts as soon as its predecessors are done,
// so a pipelined schedule receives segment k+1 while it sends segment k.
// The run is incremental (ScheduleRun: start, progress, done): a blocking
// call drives it to the end at once, a nonblocking one a little at a time.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "executors/arrival_hooks.h"
#include "executors/buffers.h"
#include "schedule/schedule.h"

namespace hiercoll {


// Message tags: a call's messages carry its tag base plus their per-peer
// sequence number in the schedule (modulo the span), so messages match in
// the order the schedule lists them whatever order they are posted in, and
// calls outstanding together on one communicator (each with its own base)
// never match each other's messages.  From MPI_TAG_UB: with Open MPI's
// 2^31-1, 1024 calls of 2^21 tags each.
struct TagSpace {
  int stride = 1;    // tags per call: its steps' tags, then kReservedTags
  int calls = 1;     // call numbers before the bases repeat
  int seq_span() const { return stride - kReservedTags; }  // the steps' tags
  // Tags above a call's steps for its own protocol messages (arrival-order
  // trees: the start message and the root's assignments).
  static constexpr int kReservedTags = 2;
};
const TagSpace& tag_space();
// The tag base of the call numbered call_no on its communicator.
inline int call_tag_base(uint32_t call_no) {
  const TagSpace& t = tag_space();
  return static_cast<int>(call_no % static_cast<uint32_t>(t.calls)) * t.stride;
}
// Reserved tag k (< TagSpace::kReservedTags) of the call with tag_base.
inline int reserved_tag(int tag_base, int k) { return tag_base + tag_space().seq_span() + k; }

// One schedule being run.  `bufs` describes Send and Recv; its Tmp entry
// gives the datatype and unit size of scratch, which the run allocates.
// The object keeps its storage between runs (no allocations on a repeated
// small call); the schedule and the buffers must outlive the run.
class ScheduleRun {
 public:
  // Posts the steps without predecessors (and runs the local steps that
  // become ready).  Returns an MPI error code.
  //
  // With `arrival`, the schedule is a position's in an arrival-order run
  // (arrival/arrival_order.h): peers are positions, a step waits until the
  // rank holding its position is known, and the session's messages are
  // waited for along with the schedule's.
  //
  // `blocking`: the caller waits for the run's end and advances nothing
  // else meanwhile, so small messages may be sent and received by blocking
  // MPI calls (post_one_round).
  int start(const Schedule& s, const Buffers& bufs, MPI_Op op, MPI_Comm comm, int tag_base,
            ArrivalHooks* arrival = nullptr, bool blocking = false);
  // Completes the posted requests that finished (with `wait`, blocking
  // until at least one did) and posts what became ready.  Returns an MPI
  // error code; after an error nothing of the run stays posted.
  int progress(bool wait);
  bool done() const;

 private:
  int post_ready();
  int post_one_round(bool blocking);
  // Bytes up to which a blocking run's messages go without requests:
  // Open MPI's smallest eager limit (shared memory, 4 KiB).
  static constexpr int64_t kSmallMessageBytes = 4096;
  int run_step(int id);
  int run_plain_step(const Step& st, int id);
  int post_after_its_send(int id);
  int wait_all();
  void complete(int id);
  void abandon();
  void take_arrival_posted();
  int post_message(const Step& st, int id, int* posted);
  int post_request(bool send, char* at, int count, MPI_Datatype type, const Step& st, int id);
  // A step's message tag: the call's base plus its sequence number.
  int tag_of(const Step& st) const { return tag_base_ + st.seq % seq_span_; }

  const Schedule* s_ = nullptr;
  Buffers bufs_;
  MPI_Op op_ = MPI_OP_NULL;
  int8_t commutative_ = -1;  // op's (executors/buffers.h commutes), -1 until the run's first reduction
  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_base_ = 0;
  int seq_span_ = 1;  // tag_space().seq_span(), read once per run
  ArrivalHooks* arrival_ = nullptr;
  int n_ = 0, finished_ = 0;
  int started_ = 0;  // steps posted or run: all of them, and the rest is waiting for the requests
  ScratchBuffer scratch_;
  std::vector<int32_t> waiting_;  // unfinished predecessors per step
  std::vector<int32_t> ready_;
  std::vector<int32_t> round_;     // post_ready's current round of ready steps
  // Ready receives waiting for their send to be posted; in a blocking
  // one-round run, the small receives taken once the rest is posted.
  std::vector<int32_t> deferred_;
  std::vector<char> posted_;       // per step: a send that is posted
  std::vector<MPI_Request> reqs_;
  std::vector<int32_t> req_step_;  // < 0: -1 - the arrival session's handle
  std::vector<int32_t> woken_;
  std::vector<int> done_idx_;
  std::vector<int32_t> pieces_;  // unfinished messages per step (steps sent in pieces)
};

// Runs the schedule to its end on the calling thread (blocking).  With
// `while_waiting`, the run polls instead of blocking in MPI and calls it
// between polls (the runtime advances its nonblocking calls there).
// Returns an MPI error code.
int execute_schedule(const Schedule& s, const Buffers& bufs, MPI_Op op, MPI_Comm comm, int tag_base = 0,
                     void (*while_waiting)() = nullptr, ArrivalHooks* arrival = nullptr);

}  // namespace hiercoll
