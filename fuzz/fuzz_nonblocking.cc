#include "fuzz/fuzz_nonblocking.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "fuzz/fuzz_comm.h"

namespace hiercoll::fuzz {

namespace {

bool is_derived(MPI_Datatype t) {
  if (t == MPI_DATATYPE_NULL) return false;
  int ints, addresses, types, combiner;
  MPI_Type_get_envelope(t, &ints, &addresses, &types, &combiner);
  return combiner != MPI_COMBINER_NAMED;
}

void combine_nothing(void*, void*, int*, MPI_Datatype*) {}

// Handles made right after each free, at the addresses MPI is apt to hand
// out again: a call that still used a freed handle would find one of
// these, of another meaning (three bytes; an operation that combines
// nothing), and go visibly wrong.  Freed when the calls are complete.
class Decoys {
 public:
  Decoys() = default;
  Decoys(const Decoys&) = delete;
  Decoys& operator=(const Decoys&) = delete;
  ~Decoys() {
    for (MPI_Datatype& t : types_) MPI_Type_free(&t);
    for (MPI_Op& o : ops_) MPI_Op_free(&o);
  }
  void add_type() {
    types_.emplace_back();
    MPI_Type_contiguous(3, MPI_BYTE, &types_.back());
    MPI_Type_commit(&types_.back());
  }
  void add_op() {
    ops_.emplace_back();
    MPI_Op_create(combine_nothing, 1, &ops_.back());
  }

 private:
  std::vector<MPI_Datatype> types_;
  std::vector<MPI_Op> ops_;
};

// Starts one call (persistent: makes its request) on handles of its own
// and frees them at once: MPI keeps a freed handle for the calls started
// (made) with it.  (Open MPI 4.1's own persistent collectives do not; the
// library keeps them for the requests it hands to MPI, hiercoll off too.)
int start_on_own_handles(ApiOp api, CallArgs a, const FuzzOp* op, bool persistent, MPI_Request* request,
                         Decoys* decoys) {
  std::vector<MPI_Datatype> own_types;
  for (MPI_Datatype* t : {&a.sendtype, &a.recvtype})
    if (is_derived(*t)) MPI_Type_dup(*t, t), own_types.push_back(*t);
  const bool own_op = op && op->user;
  if (own_op) MPI_Op_create(op->function, op->commutative, &a.mpi_op);
  const int rc = persistent ? init_by_op(api, Via::kMpi, a, MPI_INFO_NULL, request)
                            : start_by_op(api, Via::kMpi, a, request);
  for (MPI_Datatype& t : own_types) MPI_Type_free(&t), decoys->add_type();
  if (own_op) MPI_Op_free(&a.mpi_op), decoys->add_op();
  return rc;
}

void wait_all(std::vector<MPI_Request>& requests, std::vector<int>* rcs) {
  std::vector<MPI_Status> statuses(requests.size());
  const int rc = MPI_Waitall(int(requests.size()), requests.data(), statuses.data());
  for (size_t i = 0; i < requests.size(); ++i)
    if ((*rcs)[i] == MPI_SUCCESS) (*rcs)[i] = rc == MPI_ERR_IN_STATUS ? statuses[i].MPI_ERROR : rc;
}

void wait_shuffled(std::vector<MPI_Request>& requests, uint64_t seed, std::vector<int>* rcs) {
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t i : order)
    if ((*rcs)[i] == MPI_SUCCESS) (*rcs)[i] = MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
}

void test_any(std::vector<MPI_Request>& requests, std::vector<int>* rcs) {
  for (;;) {
    int index = MPI_UNDEFINED, done = 0;
    const int rc = MPI_Testany(int(requests.size()), requests.data(), &index, &done, MPI_STATUS_IGNORE);
    if (index != MPI_UNDEFINED) {
      (*rcs)[index] = rc;
    } else if (done || rc != MPI_SUCCESS) {
      // None left, or Testany itself failed: the calls still pending fail with it.
      for (size_t i = 0; i < requests.size(); ++i)
        if (requests[i] != MPI_REQUEST_NULL) (*rcs)[i] = rc;
      return;
    }
  }
}

}  // namespace

std::vector<int> run_nonblocking(const FuzzCase& c, const FuzzOp* op, std::vector<CallArgs> calls,
                                 uint64_t order_seed) {
  // Open MPI 4.1's libnbc crashes on a communicator freed while its calls
  // are pending: with hiercoll off the communicator stays.
  const bool free_comm = c.free_comm && !hiercoll_off(c);
  MPI_Comm own_comm = MPI_COMM_NULL;
  if (free_comm) {
    MPI_Comm_dup(calls.front().comm, &own_comm);
    for (CallArgs& a : calls) a.comm = own_comm;
  }
  Decoys decoys;
  std::vector<MPI_Request> requests(calls.size(), MPI_REQUEST_NULL);
  std::vector<int> rcs(calls.size());
  for (size_t i = 0; i < calls.size(); ++i)
    rcs[i] = start_on_own_handles(c.api, calls[i], op, c.persistent, &requests[i], &decoys);
  if (free_comm) MPI_Comm_free(&own_comm);
  if (c.persistent) {
    // One MPI_Startall of every request made.
    std::vector<MPI_Request> made;
    for (MPI_Request r : requests)
      if (r != MPI_REQUEST_NULL) made.push_back(r);
    const int rc = made.empty() ? MPI_SUCCESS : MPI_Startall(int(made.size()), made.data());
    for (size_t i = 0; i < calls.size(); ++i)
      if (rcs[i] == MPI_SUCCESS && rc != MPI_SUCCESS) rcs[i] = rc;
  }
  switch (c.completion) {
    case Completion::kWaitall: wait_all(requests, &rcs); break;
    case Completion::kWaitShuffled: wait_shuffled(requests, order_seed, &rcs); break;
    case Completion::kTestany: test_any(requests, &rcs); break;
  }
  if (c.persistent)
    for (MPI_Request& r : requests)
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  return rcs;
}

}  // namespace hiercoll::fuzz
