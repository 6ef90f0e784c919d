#include "executors/mpi_executor.h"

#include <algorithm>
#include <climits>

#include "arrival/arrival_order.h"

namespace hiercoll {

const TagSpace& tag_space() {
  static const TagSpace t = [] {
    int* ub = nullptr;
    int flag = 0;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    const int64_t tags = (flag && ub ? static_cast<int64_t>(*ub) : 32767) + 1;
    TagSpace s;
    s.calls = tags >= (int64_t{1} << 30) ? 1024 : 16;
    s.stride = static_cast<int>(tags / s.calls);
    return s;
  }();
  return t;
}

int ScheduleRun::start(const Schedule& s, const Buffers& user_bufs, MPI_Op op, MPI_Comm comm, int tag_base,
                       ArrivalHooks* arrival, bool blocking) {
  s_ = &s;
  arrival_ = arrival;
  op_ = op;
  commutative_ = -1;
  comm_ = comm;
  tag_base_ = tag_base;
  seq_span_ = tag_space().seq_span();
  bufs_ = user_bufs;
  if (s.tmp_units > 0) bufs_[Buf::kTmp] = scratch_.allocate(user_bufs[Buf::kTmp], s.tmp_units);
  n_ = static_cast<int>(s.steps.size());
  finished_ = 0;
  started_ = 0;
  ready_.clear();
  deferred_.clear();
  reqs_.clear();
  req_step_.clear();
  pieces_.clear();  // sized on the first step sent in pieces
  if (s.one_round && !arrival) return post_one_round(blocking);
  waiting_.assign(s.pred_count.begin(), s.pred_count.end());
  posted_.assign(n_, 0);
  for (int i = n_ - 1; i >= 0; --i)
    if (waiting_[i] == 0) ready_.push_back(i);
  take_arrival_posted();
  return post_ready();
}

namespace {

// Whether a message step's span goes in one MPI call (count and bytes
// within int), with its element count and bytes.
inline bool one_call(const BufDesc& d, const Span& sp, int* count, int64_t* bytes) {
  if (sp.n > INT_MAX || d.elems_per_unit > INT_MAX) return false;
  const int64_t elems = sp.n * d.elems_per_unit;
  if (elems > INT_MAX) return false;
  *bytes = elems * d.type_size;
  *count = static_cast<int>(elems);
  return *bytes <= INT_MAX;
}

}  // namespace

// A schedule without dependencies: post_ready's one round (sends, then
// receives, then local steps, each in schedule order) without its
// readiness bookkeeping and its calls per step, which cost a small call
// about as much as MPI's own posting (callgrind, an alltoallv of 8 B on 8
// ranks): one loop over the messages.
//
// A blocking run takes its small messages the way Open MPI's own linear
// collectives do, without a request: a lone send (a gather's non-root) by
// PMPI_Send, small receives by PMPI_Recv in schedule order once every send
// and every larger receive is posted.  Nothing can then wait for this rank
// (all it sends is on its way), a small message travels eagerly whether or
// not its receive is posted, and every step of a call has its own tag
// (seq below seq_span), so taking receives out of schedule order matches
// each message to its own step.  (docs/ARCHITECTURE.md, "One-round runs",
// has what this saves.)
int ScheduleRun::post_one_round(bool blocking) {
  const Schedule& s = *s_;
  const int32_t* order = s.by_kind.data();
  const int recv_end = s.sends + s.receives;
  int rc = MPI_SUCCESS;
  for (int k = 0; k < recv_end && rc == MPI_SUCCESS; ++k) {
    const int id = order[k];
    const Step& st = s.steps[id];
    const bool send = k < s.sends;
    const Span& sp = send ? st.src : st.dst;
    const BufDesc& d = bufs_[sp.buf];
    int count = 0;
    int64_t bytes = 0;
    if (!one_call(d, sp, &count, &bytes)) {
      rc = run_plain_step(st, id);  // sent in pieces
      continue;
    }
    const bool small = blocking && bytes <= kSmallMessageBytes;
    if (small && !send) {
      deferred_.push_back(id);  // taken once the rest is posted
      continue;
    }
    ++started_;
    if (small && recv_end == 1) {  // a lone small send
      rc = PMPI_Send(span_address(bufs_, sp), count, d.type, st.peer, tag_of(st), comm_);
      if (rc == MPI_SUCCESS) ++finished_;  // (no step follows one in a one-round schedule)
      continue;
    }
    rc = post_request(send, span_address(bufs_, sp), count, d.type, st, id);
  }
  for (size_t k = 0; k < deferred_.size() && rc == MPI_SUCCESS; ++k) {
    const Step& st = s.steps[deferred_[k]];
    int count = 0;
    rc = span_elements(bufs_, st.dst, &count);
    if (rc != MPI_SUCCESS) break;
    ++started_;
    rc = PMPI_Recv(span_address(bufs_, st.dst), count, bufs_[st.dst.buf].type, st.peer, tag_of(st), comm_,
                   MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) ++finished_;
  }
  deferred_.clear();
  for (int k = recv_end; k < n_ && rc == MPI_SUCCESS; ++k) rc = run_plain_step(s.steps[order[k]], order[k]);
  if (rc != MPI_SUCCESS) abandon();
  return rc;
}

bool ScheduleRun::done() const { return finished_ == n_ && !(arrival_ && arrival_->busy()); }

// The arrival session's newly posted requests join the run's, marked by a
// negative step.
void ScheduleRun::take_arrival_posted() {
  if (!arrival_) return;
  const size_t from = req_step_.size();
  arrival_->take_posted(&reqs_, &req_step_);
  for (size_t i = from; i < req_step_.size(); ++i) req_step_[i] = -1 - req_step_[i];
}

void ScheduleRun::complete(int id) {
  ++finished_;
  for (int k = s_->succ_begin[id]; k < s_->succ_begin[id + 1]; ++k)
    if (--waiting_[s_->succ[k]] == 0) ready_.push_back(s_->succ[k]);
}

// Posts the messages of a send or receive step: one, or for a span too large
// for one MPI call, one per piece (units_per_piece; the peer cuts alike, and
// MPI keeps messages of one tag between two ranks in order).  How many were
// posted goes to *posted.
// One MPI message of step id (with the step's peer and tag), its request
// kept with the step's number.
int ScheduleRun::post_request(bool send, char* at, int count, MPI_Datatype type, const Step& st, int id) {
  MPI_Request req = MPI_REQUEST_NULL;
  const int rc = send ? PMPI_Isend(at, count, type, st.peer, tag_of(st), comm_, &req)
                      : PMPI_Irecv(at, count, type, st.peer, tag_of(st), comm_, &req);
  if (rc != MPI_SUCCESS) return rc;
  reqs_.push_back(req);
  req_step_.push_back(id);
  return MPI_SUCCESS;
}

int ScheduleRun::post_message(const Step& st, int id, int* posted) {
  const Span& sp = st.kind == StepKind::kSend ? st.src : st.dst;
  const BufDesc& d = bufs_[sp.buf];
  // Most spans fit one MPI call; only larger ones are cut, and pay for the
  // division that sizes the pieces.
  int count = 0;
  int64_t bytes = 0;
  const int64_t piece = one_call(d, sp, &count, &bytes) ? std::max<int64_t>(sp.n, 1) : units_per_piece(d);
  *posted = 0;
  Span rest = sp;
  do {
    const Span part = first_piece(rest, piece);
    const bool send = st.kind == StepKind::kSend;
    int rc = span_elements(bufs_, part, &count);
    if (rc == MPI_SUCCESS) rc = post_request(send, span_address(bufs_, part), count, d.type, st, id);
    if (rc != MPI_SUCCESS) return rc;
    ++*posted;
    rest = after_piece(rest, piece);
  } while (rest.n > 0);
  return MPI_SUCCESS;
}

// Posts the ready messages and runs the ready local steps (which may make
// more steps ready) until nothing is ready.  Each round posts its sends,
// then its receives, then runs its local steps; a receive whose exchange
// sends first (Schedule::post_after) waits until that send is posted.
// Sends first keep rendezvous handshakes from queueing behind bulk data
// on shaped links (docs/ARCHITECTURE.md, "Posting order").
int ScheduleRun::post_ready() {
  int rc = MPI_SUCCESS;
  while (!ready_.empty() && rc == MPI_SUCCESS) {
    round_.swap(ready_);
    ready_.clear();
    // From the back: as a stack takes them (the first round: schedule order).
    for (auto it = round_.rbegin(); it != round_.rend() && rc == MPI_SUCCESS; ++it)
      if (s_->steps[*it].kind == StepKind::kSend) rc = run_step(*it);
    for (auto it = round_.rbegin(); it != round_.rend() && rc == MPI_SUCCESS; ++it)
      if (s_->steps[*it].kind == StepKind::kRecv) rc = post_after_its_send(*it);
    for (size_t k = 0; k < deferred_.size() && rc == MPI_SUCCESS;) {
      if (!posted_[s_->post_after[deferred_[k]]]) {
        ++k;
        continue;
      }
      rc = run_step(deferred_[k]);
      deferred_[k] = deferred_.back();
      deferred_.pop_back();
    }
    for (auto it = round_.rbegin(); it != round_.rend() && rc == MPI_SUCCESS; ++it) {
      const StepKind k = s_->steps[*it].kind;
      if (k == StepKind::kCopy || k == StepKind::kReduce) rc = run_step(*it);
    }
  }
  if (rc == MPI_SUCCESS && !done() && reqs_.empty()) rc = MPI_ERR_INTERN;  // cyclic dependencies: a generator bug
  if (rc != MPI_SUCCESS) abandon();
  return rc;
}

int ScheduleRun::post_after_its_send(int id) {
  const int32_t send = s_->post_after[id];
  if (send >= 0 && !posted_[send]) {
    deferred_.push_back(id);
    return MPI_SUCCESS;
  }
  return run_step(id);
}

// Posts step id's message or runs its local work (completing it, which may
// make more steps ready).
int ScheduleRun::run_step(int id) {
  const Step& st = s_->steps[id];
  if (arrival_ && step_position(st) >= 0) {
    const int pos = step_position(st);
    const int holder = arrival_->labels().rank(pos);
    if (holder < 0) {  // runs when the session places a rank there
      arrival_->labels().park(pos, id);
      return MPI_SUCCESS;
    }
    Step relabelled = st;
    if (st.kind == StepKind::kCopy)
      relabel_copy(&relabelled.src, &relabelled.dst, arrival_->block_of(holder));
    else
      relabelled.peer = holder;
    if (st.kind == StepKind::kSend) posted_[id] = 1;
    return run_plain_step(relabelled, id);
  }
  if (st.kind == StepKind::kSend) posted_[id] = 1;
  return run_plain_step(st, id);
}

// Step id as given (peers and spans already the holders').
int ScheduleRun::run_plain_step(const Step& st, int id) {
  ++started_;
  int rc = MPI_SUCCESS;
  switch (st.kind) {
    case StepKind::kSend:
    case StepKind::kRecv: {
      int posted = 0;
      rc = post_message(st, id, &posted);
      if (posted > 1) {
        if (pieces_.size() != static_cast<size_t>(n_)) pieces_.assign(n_, 0);
        pieces_[id] = posted;
      }
      break;
    }
    case StepKind::kCopy:
      rc = copy_span(bufs_, st.src, st.dst);
      complete(id);
      break;
    case StepKind::kReduce:
      if (commutative_ < 0) commutative_ = commutes(op_);  // asked at the run's first reduction
      rc = reduce_span(bufs_, st.src, st.dst, st.src_first || commutative_ > 0, op_);
      complete(id);
      break;
  }
  return rc;
}

int ScheduleRun::progress(bool wait) {
  if (done()) return MPI_SUCCESS;
  if (wait && started_ == n_ && !arrival_) return wait_all();
  done_idx_.resize(reqs_.size());
  int outcount = 0;
  const int n = static_cast<int>(reqs_.size());
  int rc = wait ? PMPI_Waitsome(n, reqs_.data(), &outcount, done_idx_.data(), MPI_STATUSES_IGNORE)
                : PMPI_Testsome(n, reqs_.data(), &outcount, done_idx_.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) {
    abandon();
    return rc;
  }
  if (outcount <= 0) return MPI_SUCCESS;
  for (int k = 0; k < outcount && rc == MPI_SUCCESS; ++k) {
    const int32_t id = req_step_[done_idx_[k]];
    if (id >= 0) {
      if (!pieces_.empty() && pieces_[id] > 1)
        --pieces_[id];  // more pieces of this step to come
      else
        complete(id);
      continue;
    }
    woken_.clear();
    rc = arrival_->completed(-1 - id, &woken_);
    ready_.insert(ready_.end(), woken_.begin(), woken_.end());
  }
  take_arrival_posted();
  // Drop finished requests (Waitsome/Testsome set them to MPI_REQUEST_NULL).
  size_t w = 0;
  for (size_t r = 0; r < reqs_.size(); ++r) {
    if (reqs_[r] == MPI_REQUEST_NULL) continue;
    reqs_[w] = reqs_[r];
    req_step_[w] = req_step_[r];
    ++w;
  }
  reqs_.resize(w);
  req_step_.resize(w);
  if (rc != MPI_SUCCESS) {
    abandon();
    return rc;
  }
  return post_ready();
}

// Every step is posted or done: what is left completes no step that others
// wait for, so one MPI_Waitall ends the run (a linear gather's root, an
// alltoall's single batch) instead of one MPI_Waitsome per completion and
// the bookkeeping between them.
int ScheduleRun::wait_all() {
  const int rc = PMPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) {
    abandon();
    return rc;
  }
  reqs_.clear();
  req_step_.clear();
  finished_ = n_;
  return MPI_SUCCESS;
}

void ScheduleRun::abandon() {
  for (MPI_Request& r : reqs_) {
    if (r == MPI_REQUEST_NULL) continue;
    PMPI_Cancel(&r);
    PMPI_Request_free(&r);
  }
  reqs_.clear();
  req_step_.clear();
  ready_.clear();
  deferred_.clear();
}

namespace {

// The calling thread's run, reached once per call through this function.
// Not inlined: GCC recomputes an inlined thread_local's address (a
// __tls_get_addr call in a shared library) after every call it makes
// (measured: 74 per 2x2 allreduce, a tenth of the executor's instructions).
__attribute__((noinline)) ScheduleRun& thread_run() {
  thread_local ScheduleRun run;
  return run;
}

}  // namespace

int execute_schedule(const Schedule& s, const Buffers& bufs, MPI_Op op, MPI_Comm comm, int tag_base,
                     void (*while_waiting)(), ArrivalHooks* arrival) {
  ScheduleRun& run = thread_run();
  int rc = run.start(s, bufs, op, comm, tag_base, arrival, /*blocking=*/while_waiting == nullptr && !arrival);
  while (rc == MPI_SUCCESS && !run.done()) {
    rc = run.progress(/*wait=*/while_waiting == nullptr);
    if (while_waiting && rc == MPI_SUCCESS && !run.done()) while_waiting();
  }
  return rc;
}

}  // namespace hiercoll
