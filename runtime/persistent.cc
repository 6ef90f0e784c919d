#include "runtime/persistent.h"

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "executors/buffers.h"
#include "runtime/call_stages.h"
#include "runtime/handle_pins.h"
#include "runtime/plan.h"
#include "runtime/requests.h"
#include "runtime/stats.h"
#include "topo/topology.h"

namespace hiercoll {

namespace {

// One persistent collective of hiercoll's, from its init to its free.  The
// PendingCall part holds what the engine runs at every start: the plan, the
// schedule, the pinned handles, the application's request.
struct PersistentCall : PendingCall {
  Call c;                                // as at init (the user's buffers and handles)
  CommState* state = nullptr;            // the communicator's: each start takes a tag base
  MPI_Comm private_comm = MPI_COMM_NULL;  // where the schedule's messages travel
  Path path = Path::kFlat;                // counted per start
  bool empty = false;                     // moves no data: a start completes at once
  int self_tag = 0;                       // the request's tag on self_comm()
  std::atomic<bool> running{false};       // its schedule started and not finished
  // What a start redoes on the buffers' current contents: the root packs a
  // bcast message whose datatype is not its bytes in order; an alltoallw
  // packs its send blocks (PackedBlocks); an in-place alltoall(v) copies
  // its input aside (elements [lo, hi) of copy's Send to its Recv, which is
  // the plan's Send).
  bool pack_root = false;
  bool pack_blocks = false;
  bool copy_in = false;
  Buffers copy;
  int64_t lo = 0, hi = 0;
};

struct Entry {
  PersistentCall* call = nullptr;  // null: MPI's own request
  ApiOp api = ApiOp::kBarrier;
};

// A request as registered.  MPI's own keeps the call's handles until it is
// freed (Open MPI 4.1's persistent collectives read a datatype, operation
// or communicator freed after init, which MPI allows).
struct Registered {
  Entry entry;
  std::unique_ptr<HandlePins> pins;
};

std::mutex g_mu;
std::unordered_map<MPI_Request, Registered> g_requests;
std::atomic<int> g_registered{0};
std::atomic<int> g_live{0};
std::vector<int> g_free_tags;
int g_next_tag = 1;

// The private communicator the requests' zero-byte messages travel on,
// made on first use (a duplicate of MPI_COMM_SELF is local).
MPI_Comm self_comm() {
  static MPI_Comm comm = [] {
    MPI_Comm c = MPI_COMM_NULL;
    PMPI_Comm_dup(MPI_COMM_SELF, &c);
    return c;
  }();
  return comm;
}

int take_tag() {
  std::lock_guard<std::mutex> lock(g_mu);
  if (!g_free_tags.empty()) {
    const int t = g_free_tags.back();
    g_free_tags.pop_back();
    return t;
  }
  return g_next_tag++;
}

void register_request(MPI_Request r, Entry e, std::unique_ptr<HandlePins> pins = nullptr) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_requests[r] = Registered{e, std::move(pins)};
  g_registered.store(static_cast<int>(g_requests.size()));
}

bool find_request(MPI_Request r, Entry* e) {
  if (g_registered.load(std::memory_order_relaxed) == 0 || r == MPI_REQUEST_NULL) return false;
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_requests.find(r);
  if (it == g_requests.end()) return false;
  *e = it->second.entry;
  return true;
}

void forget_request(MPI_Request r, int tag) {
  std::unique_ptr<HandlePins> pins;  // released after the lock: they may free handles
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_requests.find(r);
  if (it != g_requests.end()) {
    pins = std::move(it->second.pins);
    g_requests.erase(it);
  }
  g_registered.store(static_cast<int>(g_requests.size()));
  if (tag > 0) g_free_tags.push_back(tag);
}

// Completes the application's request: the message its receive waits for.
void complete_request(PersistentCall* p) { PMPI_Send(nullptr, 0, MPI_BYTE, 0, p->self_tag, self_comm()); }

void on_finish(PendingCall* call) {
  auto* p = static_cast<PersistentCall*>(call);
  if (p->rc != MPI_SUCCESS)
    std::fprintf(stderr, "hiercoll: %s: a start failed (MPI error %d)\n", p->c.mpi_name, p->rc);
  p->running.store(false);
  complete_request(p);
}

// Active in MPI's sense: started and not yet completed by a Wait or Test.
// An inactive persistent request's status is the empty one (MPI_ANY_TAG);
// a completed one not yet waited for has the message's tag.
bool is_active(PersistentCall* p) {
  if (p->running.load()) return true;
  int flag = 0;
  MPI_Status st;
  PMPI_Request_get_status(p->request, &flag, &st);
  return !flag || st.MPI_TAG != MPI_ANY_TAG;
}

// What a start redoes on the data (see PersistentCall).
void plan_refresh(PersistentCall* p, int rank, int size) {
  const Call& c = p->c;
  Plan& plan = p->plan;
  if (c.op == Op::kBcast && rank == c.root && plan.message.packed) p->pack_root = true;
  p->pack_blocks = !plan.typed.packs.empty();
  // (An alltoallw's packed input is a copy already.)
  if ((c.op == Op::kAlltoall || c.op == Op::kAlltoallv) && c.sendbuf == MPI_IN_PLACE && !p->pack_blocks) {
    const CollArgs& a = plan.args;
    if (c.op == Op::kAlltoall) {
      p->lo = 0;
      p->hi = size;
    } else if (!a.counts.empty()) {
      p->lo = p->hi = a.displs[0];
      for (size_t j = 0; j < a.counts.size(); ++j) {
        p->lo = std::min(p->lo, a.displs[j]);
        p->hi = std::max(p->hi, a.displs[j] + a.counts[j]);
      }
    }
    if (p->hi > p->lo) {
      p->copy_in = true;
      p->copy[Buf::kSend] = plan.bufs[Buf::kRecv];
      p->copy[Buf::kRecv] = plan.bufs[Buf::kSend];
    }
  }
}

int refresh(PersistentCall* p) {
  if (p->pack_root) return pack_elements(p->c.recvbuf, p->c.recvcount, p->c.recvtype, p->plan.message.packed.get());
  if (p->pack_blocks) return p->plan.typed.pack();
  if (p->copy_in)
    return copy_span(p->copy, Span{Buf::kSend, p->lo, p->hi - p->lo}, Span{Buf::kRecv, p->lo, p->hi - p->lo});
  return MPI_SUCCESS;
}

// Starts p's schedule; its request was started already.
int start_one(PersistentCall* p) {
  count_call(p->c.api, p->path);
  if (p->empty) {
    complete_request(p);
    return MPI_SUCCESS;
  }
  int rc = refresh(p);
  if (rc == MPI_SUCCESS) {
    p->running.store(true);
    rc = start_persistent_run(p, p->private_comm, p->state->next_tag_base());
  }
  if (rc != MPI_SUCCESS) {
    p->running.store(false);
    complete_request(p);
    return raise_error(p->comm, rc);
  }
  return MPI_SUCCESS;
}

// HIERCOLL_VERBOSE: once per operation, that a persistent call went to MPI.
int say_native(const Settings& s, const Call& c, const char* why) {
  static std::atomic<bool> said[kNumApiOps] = {};
  if (s.verbose && !said[static_cast<int>(c.api)].exchange(true))
    std::fprintf(stderr, "hiercoll: %s: handed to MPI (%s)\n", c.mpi_name, why);
  return -1;
}

}  // namespace

namespace {

// The plan and schedule, decided as a nonblocking call's (no arrival order:
// its protocol blocks; no count exchange inside a start); kGoOn, kToMpi
// (the decided method, the model's or the tuning file's, is MPI's own), or
// the MPI code raised.
int plan_persistent(const Call& c, const CallPath& cp, PersistentCall* p) {
  Plan& plan = p->plan;
  int rc;
  try {
    rc = make_plan(c, cp.rank, cp.size, &plan);
  } catch (const std::bad_alloc&) {
    rc = MPI_ERR_NO_MEM;
  }
  if (rc != MPI_SUCCESS) return raise_error(c.comm, rc);
  const Tuned tuned = tuned_for(plan, *cp.settings, cp.state);
  if (tuned.range && tuned.range->method.kind == Method::kNative)
    return say_native(*cp.settings, c, "the decided method is MPI's own");
  const Scheduled s = schedule_call(c, plan, cp, tuned, /*blocking=*/false, /*tag_base=*/0);
  if (s.rc != kGoOn) return s.rc;
  p->path = s.path;
  p->schedule = *s.schedule;
  plan_refresh(p, cp.rank, cp.size);
  for (const BufDesc& d : plan.bufs.buf) p->pins.pin_type(d.type);
  p->pins.pin_type(plan.message.type);
  if (c.op == Op::kBcast) p->pins.pin_type(c.recvtype);  // the root packs with it
  for (const auto* blocks : {&plan.typed.packs, &plan.typed.unpacks})  // alltoallw's datatypes
    for (const PackedBlocks::Block& b : *blocks) p->pins.pin_type(b.type);
  p->pins.pin_op(c.mpi_op);
  return kGoOn;
}

}  // namespace

int init_persistent(const Call& c, MPI_Request* request) {
  CallPath cp;
  int rc = prepare_call(c, &cp);  // the topology is collective on a first call, as init is
  if (rc == kToMpi && cp.settings && cp.settings->mode == Mode::kOff) return say_native(*cp.settings, c, "mode off");
  if (rc != kGoOn) return rc;
  auto p = std::make_unique<PersistentCall>();
  p->c = c;
  p->state = cp.state;
  p->private_comm = cp.topo->comm;
  p->op = c.mpi_op;
  p->comm = c.comm;
  if (moves_nothing(c, cp.rank, cp.size)) {
    p->empty = true;
    // Counted where the mode and layout would send a call with data (an
    // operation the rules keep flat included).
    p->path = cp.settings->mode == Mode::kHier && cp.state->facts.hierarchical() ? Path::kHier : Path::kFlat;
    note_algorithm("none");
  } else {
    rc = plan_persistent(c, cp, p.get());
    if (rc != kGoOn) return rc;
  }
  p->pins.pin_comm(c.comm);
  p->self_tag = take_tag();
  rc = PMPI_Recv_init(nullptr, 0, MPI_BYTE, 0, p->self_tag, self_comm(), &p->request);
  if (rc != MPI_SUCCESS) {
    forget_request(MPI_REQUEST_NULL, p->self_tag);
    return raise_error(c.comm, rc);
  }
  p->on_finish = on_finish;
  *request = p->request;
  register_request(p->request, Entry{p.get(), c.api});
  p.release();
  g_live.fetch_add(1);
  return MPI_SUCCESS;
}

void note_native_persistent(MPI_Request request, const Call& c) {
  if (request == MPI_REQUEST_NULL) return;
  auto pins = std::make_unique<HandlePins>();
  pins->pin_type(c.sendtype);
  pins->pin_type(c.recvtype);
  if (c.sendtypes || c.recvtypes) {  // alltoallw: a datatype per peer
    int inter = 0, peers = 0;
    PMPI_Comm_test_inter(c.comm, &inter);
    (inter ? PMPI_Comm_remote_size : PMPI_Comm_size)(c.comm, &peers);
    for (int r = 0; r < peers; ++r) {
      if (c.sendtypes && c.sendbuf != MPI_IN_PLACE) pins->pin_type(c.sendtypes[r]);
      if (c.recvtypes) pins->pin_type(c.recvtypes[r]);
    }
  }
  pins->pin_op(c.mpi_op);
  pins->pin_comm(c.comm);
  register_request(request, Entry{nullptr, c.api}, std::move(pins));
}

int start_requests(int count, MPI_Request requests[]) {
  if (g_registered.load(std::memory_order_relaxed) == 0 || count <= 0 || !requests)
    return count == 1 && requests ? PMPI_Start(requests) : PMPI_Startall(count, requests);
  // Starting an active request of hiercoll's is an error, and starts
  // nothing (checked before MPI starts any).  A few requests' entries on
  // the stack (a start allocates nothing).
  constexpr int kOnStack = 16;
  Entry stack_entries[kOnStack];
  bool stack_known[kOnStack];
  std::vector<Entry> heap_entries;
  std::unique_ptr<bool[]> heap_known;
  Entry* entries = stack_entries;
  bool* known = stack_known;
  if (count > kOnStack) {
    heap_entries.resize(static_cast<size_t>(count));
    heap_known.reset(new bool[static_cast<size_t>(count)]);
    entries = heap_entries.data();
    known = heap_known.get();
  }
  for (int i = 0; i < count; ++i) {
    known[i] = find_request(requests[i], &entries[i]);
    if (known[i] && entries[i].call && is_active(entries[i].call))
      return raise_error(entries[i].call->comm, MPI_ERR_REQUEST);
  }
  const int rc = count == 1 ? PMPI_Start(requests) : PMPI_Startall(count, requests);
  if (rc != MPI_SUCCESS) return rc;
  int first_error = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    if (!known[i]) continue;
    if (!entries[i].call) {
      count_call(entries[i].api, Path::kNative);
      continue;
    }
    const int src = start_one(entries[i].call);
    if (src != MPI_SUCCESS && first_error == MPI_SUCCESS) first_error = src;
  }
  return first_error;
}

int free_request(MPI_Request* request) {
  Entry e;
  if (!request || !find_request(*request, &e)) return PMPI_Request_free(request);
  PersistentCall* p = e.call;
  // Freeing a persistent collective while its schedule runs would pull its
  // buffers and plan from under it.
  if (p && p->running.load()) return raise_error(p->comm, MPI_ERR_REQUEST);
  const MPI_Request r = *request;
  const int rc = PMPI_Request_free(request);
  if (rc != MPI_SUCCESS) return rc;
  forget_request(r, p ? p->self_tag : 0);
  if (p) {
    delete p;  // releases its pins
    g_live.fetch_sub(1);
  }
  return MPI_SUCCESS;
}

int live_persistent() { return g_live.load(); }

}  // namespace hiercoll
