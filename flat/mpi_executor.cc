#include "flat/mpi_executor.h"

#include "flat/arrival_mpi.h"

#include <vector>

namespace hiercoll {

namespace {

// Per-thread state reused between calls to keep allocations off the
// small-message path.
struct ExecState {
  ScratchBuffer scratch;
  std::vector<int32_t> waiting;  // unfinished predecessors per step
  std::vector<int32_t> ready;
  std::vector<MPI_Request> reqs;
  std::vector<int32_t> req_step;  // < 0: -1 - the arrival session's handle
  std::vector<int32_t> woken;
  std::vector<int> done_idx;
};

int tag_of(const Step& st, int tag_ub) { return st.seq % tag_ub; }

// The calling thread's state, reached once per call through this function.
// Not inlined: GCC recomputes an inlined thread_local's address (a
// __tls_get_addr call in a shared library) after every call it makes
// (measured: 74 per 2x2 allreduce, a tenth of the executor's instructions).
__attribute__((noinline)) ExecState& exec_state() {
  thread_local ExecState es;
  return es;
}

}  // namespace

int largest_tag() {
  static int tag_ub = [] {
    int* ub = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    return flag && ub ? *ub : 32767;
  }();
  return tag_ub;
}

int execute_schedule(const Schedule& s, const Buffers& user_bufs, MPI_Op op, MPI_Comm comm, ArrivalSession* arrival) {
  ExecState& es = exec_state();
  const int tag_ub = largest_tag();

  Buffers bufs = user_bufs;
  if (s.tmp_units > 0) bufs[Buf::kTmp] = es.scratch.allocate(user_bufs[Buf::kTmp], s.tmp_units);

  const int n = static_cast<int>(s.steps.size());
  es.waiting.assign(s.pred_count.begin(), s.pred_count.end());
  es.ready.clear();
  es.reqs.clear();
  es.req_step.clear();
  for (int i = n - 1; i >= 0; --i)
    if (es.waiting[i] == 0) es.ready.push_back(i);
  if (arrival) arrival->take_posted(&es.reqs, &es.req_step);
  for (size_t i = 0; i < es.req_step.size(); ++i) es.req_step[i] = -1 - es.req_step[i];

  int finished = 0;
  auto complete = [&](int id) {
    ++finished;
    for (int k = s.succ_begin[id]; k < s.succ_begin[id + 1]; ++k)
      if (--es.waiting[s.succ[k]] == 0) es.ready.push_back(s.succ[k]);
  };

  int rc = MPI_SUCCESS;
  while (finished < n || (arrival && arrival->busy())) {
    while (!es.ready.empty() && rc == MPI_SUCCESS) {
      const int id = es.ready.back();
      es.ready.pop_back();
      Step relabelled;
      const Step* stp = &s.steps[id];
      if (arrival && step_position(*stp) >= 0) {
        const int pos = step_position(*stp);
        const int holder = arrival->labels().rank(pos);
        if (holder < 0) {
          arrival->labels().park(pos, id);
          continue;
        }
        relabelled = *stp;
        if (stp->kind == StepKind::kCopy)
          relabel_copy(&relabelled.src, &relabelled.dst, holder);
        else
          relabelled.peer = holder;
        stp = &relabelled;
      }
      const Step& st = *stp;
      int count = 0;
      switch (st.kind) {
        case StepKind::kSend:
        case StepKind::kRecv: {
          const Span& sp = st.kind == StepKind::kSend ? st.src : st.dst;
          rc = span_elements(bufs, sp, &count);
          if (rc != MPI_SUCCESS) break;
          MPI_Request req = MPI_REQUEST_NULL;
          if (st.kind == StepKind::kSend)
            rc = MPI_Isend(span_address(bufs, sp), count, bufs[sp.buf].type, st.peer, tag_of(st, tag_ub), comm, &req);
          else
            rc = MPI_Irecv(span_address(bufs, sp), count, bufs[sp.buf].type, st.peer, tag_of(st, tag_ub), comm, &req);
          if (rc != MPI_SUCCESS) break;  // nothing was posted
          es.reqs.push_back(req);
          es.req_step.push_back(id);
          break;
        }
        case StepKind::kCopy:
          rc = copy_span(bufs, st.src, st.dst);
          complete(id);
          break;
        case StepKind::kReduce:
          rc = reduce_span(bufs, st.src, st.dst, st.src_first, op);
          complete(id);
          break;
      }
    }
    if (rc != MPI_SUCCESS) break;
    if (finished == n && !(arrival && arrival->busy())) break;
    if (es.reqs.empty()) return MPI_ERR_INTERN;  // cyclic dependencies: a generator bug
    es.done_idx.resize(es.reqs.size());
    int outcount = 0;
    rc = MPI_Waitsome(static_cast<int>(es.reqs.size()), es.reqs.data(), &outcount, es.done_idx.data(),
                      MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) break;
    for (int k = 0; k < outcount && rc == MPI_SUCCESS; ++k) {
      const int32_t id = es.req_step[es.done_idx[k]];
      if (id >= 0) {
        complete(id);
        continue;
      }
      es.woken.clear();
      rc = arrival->completed(-1 - id, &es.woken);
      es.ready.insert(es.ready.end(), es.woken.begin(), es.woken.end());
    }
    if (arrival) {
      const size_t from = es.req_step.size();
      arrival->take_posted(&es.reqs, &es.req_step);
      for (size_t i = from; i < es.req_step.size(); ++i) es.req_step[i] = -1 - es.req_step[i];
    }
    // Drop finished requests (Waitsome set them to MPI_REQUEST_NULL).
    size_t w = 0;
    for (size_t r = 0; r < es.reqs.size(); ++r) {
      if (es.reqs[r] == MPI_REQUEST_NULL) continue;
      es.reqs[w] = es.reqs[r];
      es.req_step[w] = es.req_step[r];
      ++w;
    }
    es.reqs.resize(w);
    es.req_step.resize(w);
  }
  if (rc != MPI_SUCCESS) {
    for (MPI_Request& r : es.reqs) {
      if (r == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&r);
      MPI_Request_free(&r);
    }
    es.reqs.clear();
  }
  return rc;
}

}  // namespace hiercoll
