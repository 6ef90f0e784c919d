// A call laid out for schedules: arguments in units, the three buffers, and
// the paths that run it.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "algorithms/registry.h"
#include "executors/buffers.h"
#include "runtime/call.h"
#include "runtime/comm_state.h"
#include "runtime/settings.h"
#include "schedule/coll_args.h"
#include "select/flat_rules.h"
#include "topo/topology.h"

namespace hiercoll {

// A bcast as bytes (plan_bcast.cc): what the plan holds beyond the user's
// buffer.  Not copyable: it owns an MPI datatype.
struct ByteMessage {
  std::unique_ptr<char[]> packed;  // the message, where the datatype is not its bytes in order
  bool unpack = false;             // non-roots: unpack `packed` to unpack_to after the schedule
  void* unpack_to = nullptr;       // the user's buffer (MPI_BOTTOM, that is null, included)
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Datatype unit_type = MPI_DATATYPE_NULL;  // a unit of several bytes (messages past INT_MAX bytes)

  ByteMessage() = default;
  ByteMessage(const ByteMessage&) = delete;
  ByteMessage& operator=(const ByteMessage&) = delete;
  ~ByteMessage();
};

// An alltoallw as an alltoallv of bytes (plan_alltoallw.cc): what the plan
// holds beyond the user's buffers.  A side whose blocks' datatypes are all
// their bytes in order is used as it is; any other side goes through a
// packed copy, packed before the schedule (send) or unpacked after it
// (receive).
struct PackedBlocks {
  struct Block {
    char* at;            // the block in the user's buffer
    int count;
    MPI_Datatype type;
    int64_t packed_off;  // its bytes in the packed copy
  };
  std::vector<char> send, recv;    // the packed copies (empty: not packed)
  std::vector<Block> packs;        // send blocks to pack before each run
  std::vector<Block> unpacks;      // receive blocks to unpack after it
  int pack();
  int unpack() const;
};

struct Plan {
  CollArgs args;
  Buffers bufs;
  int64_t unit_bytes = 0;    // bytes of one unit's data (selection input)
  ScratchBuffer send_copy;  // in-place alltoall(v): the input, copied
  ByteMessage message;      // bcast
  PackedBlocks typed;       // alltoallw
};

// A blocking call's plan borrows its thread's spare count arrays (the
// v-variants' four, reduce_scatter's one), emptied, and gives them back,
// grown as needed, at its end: repeated calls allocate nothing for them.
// Lent only where make_plan fills some for call c on `rank` (null args: a
// nonblocking call's plan, which outlives the call); a call that starts
// while another holds them (hiercoll's own bcast of the root's counts)
// keeps arrays of its own.
class LentArrays {
 public:
  LentArrays(CollArgs* args, const Call& c, int rank);
  ~LentArrays();
  LentArrays(const LentArrays&) = delete;
  LentArrays& operator=(const LentArrays&) = delete;

 private:
  CollArgs* args_ = nullptr;  // null: nothing was lent
};

// Whether op is commutative (MPI_OP_NULL, for calls without one: yes).
bool op_commutative(MPI_Op op);
// Fills `plan` for call c on `rank` of `size` (handles MPI_IN_PLACE).
int make_plan(const Call& c, int rank, int size, Plan* plan);
// Bcast's part of make_plan: units of bytes, so that ranks whose datatypes
// differ (with the same type signature) cut blocks and segments alike.
int plan_bcast(const Call& c, int rank, Plan* plan);
// The v-variants' part (plan_vector.cc): units are elements, blocks the
// user's counts and displacements.
int plan_vector(const Call& c, int rank, int size, Plan* plan);
// Alltoallw's part (plan_alltoallw.cc): units are bytes, each side's
// blocks the user's bytes or a packed copy of them (PackedBlocks).
int plan_alltoallw(const Call& c, int rank, int size, Plan* plan);
// In-place alltoallv (and alltoallw): every block is read and overwritten,
// so the input (blocks and gaps between them) is copied aside and Send
// points at the copy, with the receive side's blocks.
int copy_input_aside(Plan* plan);
// What is left once the schedule ran: unpacking a packed bcast message or
// an alltoallw's packed receive blocks.
int finish_plan(const Plan& plan);

// What the communicator's tuning file decides for a call: the range that
// holds it (null: the built-in rules) and the machine figures default
// segment sizes follow (null: the built-in ones).  The knobs win over it.
struct Tuned {
  const TunedRange* range = nullptr;
  const MachineFigures* machine = nullptr;
  const PhaseChooser* phases = nullptr;  // a composition's open phases: the communicator's figures
  bool from_model = false;  // range is the model's decision (runtime/decisions.h), not the file's
  const Algorithm* algorithm = nullptr;  // the model's flat algorithm, resolved once
};
// blocking false: a nonblocking call, which MPI's own runs as libnbc's
// algorithms, not the blocking ones the model and the tuner measure: it
// runs hiercoll's cheapest own method where the decision is MPI's.
// may_try: a blocking call that may be one of online refinement's tries
// (runtime/online_tuning.h; not a persistent call's init).
Tuned tuned_for(const Plan& plan, const Settings& s, CommState* state, bool blocking = true,
                bool may_try = false);

// The flat algorithm that runs the call, and its arguments: the plan's,
// with the segment set (not copied: a v-variant's hold its count arrays).
struct FlatPick {
  const Algorithm* algorithm;
  CollArgs& args;
};
// blocking: false for a nonblocking call, which cannot wait for the count
// exchange of a gatherv or scatterv (share_root_counts).
FlatPick pick_flat(const Call& c, Plan& plan, const Settings& s, const Tuned& t, const LinkSharing& links,
                   bool blocking);
// The schedule that runs the call hierarchically; null when none applies
// (degenerate topology, operation kept flat, a composition that needs the
// count exchange for a nonblocking call: !blocking) or when the count
// exchange failed (*rc: its MPI error code, else MPI_SUCCESS).
const std::shared_ptr<Schedule>* choose_hierarchical(const Call& c, Plan& plan, const Topology& topo,
                                                    const Settings& s, CommState* state, const Tuned& t,
                                                    bool blocking, int* rc);

// Gatherv/scatterv whose algorithm or composition needs every block's
// count on every rank (kAllCounts, kNeedAllCounts): the root's counts
// broadcast to all and adopted (root_counts.cc).  Collective; every rank
// calls it for the same calls.  The counts travel in bytes (the root's
// elements of unit_bytes each); non-roots adopt them as bytes and their
// scratch (bufs' Tmp) becomes bytes.  MPI error code.
int share_root_counts(const Topology& topo, CommState* state, CollArgs* a, Buffers* bufs, int64_t unit_bytes);
// Alltoallv whose composition needs its node's counts at the leader
// (kNeedNodeRows): each rank's row in bytes to its node's leader (to
// every rank of the node: everywhere, kNodeRowsEverywhere)
// (node_counts.cc, hier/node_counts.h); scratch becomes bytes.  Collective
// inside each node.  MPI error code.
int share_node_counts(const Topology& topo, CommState* state, CollArgs* a, Buffers* bufs, bool everywhere);

// Arrival-order trees (HIERCOLL_DYNAMIC, or a tuning file's dynamic
// method), blocking calls only.  Whether the flat pick runs in arrival order:
bool wants_arrival_order(const FlatPick& pick, const Settings& s, const Tuned& t);
// Runs the flat pick's tree (the binomial tree for an algorithm that is no
// tree) in arrival order.  MPI error code.
int run_flat_arrival(const Call& c, const Plan& plan, const FlatPick& pick, const Settings& s, CommState* state,
                     MPI_Comm comm, int tag_base);
// Bcast, commutative reduce, gather and scatter: the leaders' and the
// nodes' binomial trees in arrival order (runtime/hier_arrival.cc), bcast
// and reduce on equal nodes the forced or decided composition (`t`); -1
// for other operations and degenerate layouts, else an MPI error code.
int run_hier_arrival(const Call& c, Plan& plan, const Topology& topo, const Settings& s, CommState* state,
                     const Tuned& t, int tag_base);

// HIERCOLL_VERBOSE: a segment of `asked` bytes was raised to `used` (the
// segment bounds of select/flat_rules.h).
void say_segment_raised(const Settings& s, const Call& c, int64_t asked, int64_t used);


}  // namespace hiercoll
