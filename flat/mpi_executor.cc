#include "flat/mpi_executor.h"

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
  std::vector<int32_t> req_step;
  std::vector<int> done_idx;
  std::vector<int32_t> pieces;  // unfinished messages per step (steps sent in pieces)
};

// Posts the messages of a send or receive step: one, or for a span too large
// for one MPI call, one per piece (units_per_piece; the peer cuts alike, and
// MPI keeps messages of one tag between two ranks in order).  Returns how
// many were posted through *posted.
int post(const Step& st, const Buffers& bufs, int tag, MPI_Comm comm, ExecState& es, int id, int* posted) {
  const Span& sp = st.kind == StepKind::kSend ? st.src : st.dst;
  const int64_t piece = units_per_piece(bufs[sp.buf]);
  *posted = 0;
  Span rest = sp;
  do {
    const Span part = first_piece(rest, piece);
    int count = 0;
    int rc = span_elements(bufs, part, &count);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Request req = MPI_REQUEST_NULL;
    if (st.kind == StepKind::kSend)
      rc = MPI_Isend(span_address(bufs, part), count, bufs[part.buf].type, st.peer, tag, comm, &req);
    else
      rc = MPI_Irecv(span_address(bufs, part), count, bufs[part.buf].type, st.peer, tag, comm, &req);
    if (rc != MPI_SUCCESS) return rc;
    es.reqs.push_back(req);
    es.req_step.push_back(id);
    ++*posted;
    rest = after_piece(rest, piece);
  } while (rest.n > 0);
  return MPI_SUCCESS;
}

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

int execute_schedule(const Schedule& s, const Buffers& user_bufs, MPI_Op op, MPI_Comm comm) {
  ExecState& es = exec_state();
  static int tag_ub = [] {
    int* ub = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    return flag && ub ? *ub : 32767;
  }();

  Buffers bufs = user_bufs;
  if (s.tmp_units > 0) bufs[Buf::kTmp] = es.scratch.allocate(user_bufs[Buf::kTmp], s.tmp_units);

  const int n = static_cast<int>(s.steps.size());
  es.waiting.assign(s.pred_count.begin(), s.pred_count.end());
  es.ready.clear();
  es.reqs.clear();
  es.req_step.clear();
  es.pieces.clear();  // sized on the first step sent in pieces
  for (int i = n - 1; i >= 0; --i)
    if (es.waiting[i] == 0) es.ready.push_back(i);

  int finished = 0;
  auto complete = [&](int id) {
    ++finished;
    for (int k = s.succ_begin[id]; k < s.succ_begin[id + 1]; ++k)
      if (--es.waiting[s.succ[k]] == 0) es.ready.push_back(s.succ[k]);
  };

  int rc = MPI_SUCCESS;
  while (finished < n) {
    while (!es.ready.empty() && rc == MPI_SUCCESS) {
      const int id = es.ready.back();
      es.ready.pop_back();
      const Step& st = s.steps[id];
      switch (st.kind) {
        case StepKind::kSend:
        case StepKind::kRecv: {
          int posted = 0;
          rc = post(st, bufs, tag_of(st, tag_ub), comm, es, id, &posted);
          if (posted > 1) {
            if (es.pieces.size() != static_cast<size_t>(n)) es.pieces.assign(n, 0);
            es.pieces[id] = posted;
          }
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
    if (finished == n) break;
    if (es.reqs.empty()) return MPI_ERR_INTERN;  // cyclic dependencies: a generator bug
    es.done_idx.resize(es.reqs.size());
    int outcount = 0;
    rc = MPI_Waitsome(static_cast<int>(es.reqs.size()), es.reqs.data(), &outcount, es.done_idx.data(),
                      MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) break;
    for (int k = 0; k < outcount; ++k) {
      const int id = es.req_step[es.done_idx[k]];
      if (!es.pieces.empty() && es.pieces[id] > 1) {
        --es.pieces[id];  // more pieces of this step to come
        continue;
      }
      complete(id);
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
