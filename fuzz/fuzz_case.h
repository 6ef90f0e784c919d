// One fuzz case: everything about a collective call that the fuzzer
// varies, drawn from (seed, index) alone, so every rank draws the same case
// and any case can be replayed on its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/stats.h"
#include "schedule/coll_args.h"

namespace hiercoll::fuzz {

enum class CommKind { kDup, kSplit, kCreateGroup };
// A v-variant's displacements: blocks in rank order back to back, in rank
// order with gaps, or in a random order with gaps.
enum class Displs { kInOrder, kGaps, kShuffled };
// How a nonblocking case completes its calls on each rank: MPI_Waitall,
// MPI_Wait in an order shuffled per rank, or MPI_Testany until none is left.
enum class Completion { kWaitall, kWaitShuffled, kTestany };

struct FuzzCase {
  uint64_t seed = 0;
  int64_t index = 0;
  ApiOp api = ApiOp::kBcast;
  int type = 0;  // index into fuzz_types()
  int op = -1;   // index into ops_for(type) (reductions), else -1
  int count = 0; // elements (per block for block collectives)
  uint32_t root_draw = 0;  // root = root_draw % (communicator size)
  bool in_place = false;
  // Data movement of a type made of ints: the receive side (bcast: the
  // ranks but the root) describes the same data as count x k MPI_INTs, a
  // different datatype of the same type signature.
  bool recv_as_ints = false;
  // The communicator: a duplicate of MPI_COMM_WORLD, MPI_Comm_split by
  // color/key (per world rank; color < 0: MPI_UNDEFINED), or
  // MPI_Comm_create_group of `members` (world ranks, in the new order).
  CommKind comm = CommKind::kDup;
  std::vector<int> color, key, members;
  // reduce_scatter, gatherv, scatterv, allgatherv: the count of every rank
  // (first `size` of them).
  std::vector<int> counts;
  // alltoallv: matrix[i * stride + j] elements go from rank i to rank j
  // (symmetric when in place).
  std::vector<int> matrix;
  int stride = 0;
  // v-variants: how the blocks are laid out (seeded per rank).
  Displs displs = Displs::kInOrder;
  uint64_t displs_seed = 0;
  // Hints (empty / 0: not set).
  std::string mode, algorithm, composition, inter_algorithm;
  int64_t segment_bytes = 0;
  // Seeds this case's buffer contents (with the world rank).
  uint64_t data_seed = 0;
  // Arrival-order trees (rooted operations): hints hiercoll_dynamic
  // (depth, breadth) and hiercoll_dynamic_leaders (first, fixed); empty:
  // not set.  Each rank enters hiercoll's call up to max_delay_us late
  // (its own delay from data_seed), so processes arrive in varied orders.
  std::string dynamic, dynamic_leaders;
  bool online_tuning = false;  // hint hiercoll_online_tuning: the model's first methods tried in turn
  int max_delay_us = 0;
  // Empty data described differently on different ranks: counts one more
  // than drawn (none zero), and each world rank's send and receive sides
  // (empty_send[r], empty_recv[r]) pass them as elements of a datatype of
  // size zero (an index into zero_size_types()) or pass zero elements
  // (zero counts) of their datatype (-1).  Reductions, which MPI calls with
  // one count and datatype on every rank, take one zero-size datatype
  // everywhere and a user operation.  Open MPI's side of the comparison
  // passes zero elements on every rank.
  bool empty = false;
  std::vector<int> empty_send, empty_recv;
  // Nonblocking: hiercoll's side starts in_flight calls (the case's call
  // on buffers of their own, data seeded apart) with MPI_I<op> in the same
  // order on every rank, each on its own duplicates of the derived
  // datatypes and its own creation of a user operation, freed right after
  // its start; with free_comm on its own duplicate of the communicator,
  // freed after the last start.  Completed as `completion` says.
  bool nonblocking = false;
  int in_flight = 1;
  Completion completion = Completion::kWaitall;
  bool free_comm = false;
  // Persistent (a nonblocking case's form): each call made by
  // MPIX_<op>_init instead, its handles freed after the init, all started
  // by one MPI_Startall, completed as above and freed (MPI_Request_free).
  bool persistent = false;

  std::string describe() const;
};

// The operation the schedules of api run (reduce_scatter_block: reduce_scatter).
Op schedule_op(ApiOp api);
bool is_reduction(ApiOp api);
bool allows_in_place(ApiOp api);
bool is_block_op(ApiOp api);  // counts are per block, one block per rank
bool is_v_variant(ApiOp api);  // gatherv, scatterv, allgatherv, alltoallv
// Whether the operation moves data from one side's datatype to the other's.
bool moves_data(ApiOp api);
// How late this world rank enters hiercoll's call in case c (microseconds).
int entry_delay_us(const FuzzCase& c, int world_rank);

FuzzCase draw_case(uint64_t seed, int64_t index, int world_size);

}  // namespace hiercoll::fuzz
