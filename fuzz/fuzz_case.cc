#include "fuzz/fuzz_case.h"

#include <mpi.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <sstream>
#include <tuple>
#include <utility>

#include "algorithms/registry.h"
#include "fuzz/fuzz_types.h"
#include "hier/hier_registry.h"

namespace hiercoll::fuzz {

Op schedule_op(ApiOp api) {
  if (api == ApiOp::kAlltoallw) return Op::kAlltoallv;  // its schedules, on bytes
  Op op = Op::kReduceScatter;
  op_from_name(api_op_name(api), &op);  // only reduce_scatter_block has no name of its own
  return op;
}

// The operations drawn: every ApiOp.
constexpr int kFuzzedOps = kNumApiOps;

bool is_reduction(ApiOp api) {
  switch (api) {
    case ApiOp::kReduce: case ApiOp::kAllreduce: case ApiOp::kReduceScatterBlock: case ApiOp::kReduceScatter:
    case ApiOp::kScan: case ApiOp::kExscan: return true;
    default: return false;
  }
}

bool allows_in_place(ApiOp api) { return api != ApiOp::kBcast && api != ApiOp::kBarrier; }

bool is_block_op(ApiOp api) {
  switch (api) {
    case ApiOp::kAllgather: case ApiOp::kAlltoall: case ApiOp::kGather: case ApiOp::kScatter:
    case ApiOp::kReduceScatterBlock: return true;
    default: return false;
  }
}

bool is_v_variant(ApiOp api) { return api >= ApiOp::kGatherv; }

bool moves_data(ApiOp api) { return !is_reduction(api) && api != ApiOp::kBarrier; }

namespace {

class Draw {
 public:
  explicit Draw(uint64_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }
  int64_t between(int64_t lo, int64_t hi) { return lo + int64_t(below(uint64_t(hi - lo + 1))); }
  bool chance(int percent) { return below(100) < uint64_t(percent); }
  template <typename T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

// Counts 0 and 1, short odd and even ones, long ones (shorter per block when
// every rank has a block).
int draw_count(Draw& d, bool per_block, int world_size) {
  const int scale = per_block ? world_size : 1;
  const int k = int(d.below(100));
  if (k < 8) return 0;
  if (k < 16) return 1;
  if (k < 50) return int(d.between(2, 17));
  if (k < 85) return int(d.between(18, 700)) / scale + 1;
  return int(d.between(701, 9000)) / scale + 1;
}

// A v-variant's counts around a per-block count: zeros on some ranks, at
// times one heavy rank (about half of all the data); alltoallv: a matrix
// whose heavy rank sends and receives much, symmetric when in place (each
// rank then sends what it receives).
void draw_v_counts(Draw& d, int world_size, FuzzCase* c) {
  const int base = draw_count(d, true, world_size);
  const int heavy = d.chance(40) ? int(d.below(world_size)) : -1;
  auto entry = [&](bool heavy_one) {
    if (d.chance(25)) return 0;
    const int n = int(d.between(0, 2 * base));
    return heavy_one ? n + base * world_size : n;
  };
  c->counts.clear();
  if (c->api != ApiOp::kAlltoallv && c->api != ApiOp::kAlltoallw) {
    for (int r = 0; r < world_size; ++r) c->counts.push_back(entry(r == heavy));
    return;
  }
  c->stride = world_size;
  c->matrix.assign(size_t(world_size) * world_size, 0);
  for (int i = 0; i < world_size; ++i)
    for (int j = 0; j < world_size; ++j)
      c->matrix[size_t(i) * world_size + j] =
          c->in_place && j < i ? c->matrix[size_t(j) * world_size + i] : entry(i == heavy || j == heavy);
}

void draw_comm(Draw& d, int world_size, FuzzCase* c) {
  const int k = int(d.below(100));
  c->comm = k < 30 ? CommKind::kDup : k < 65 ? CommKind::kSplit : CommKind::kCreateGroup;
  if (c->comm == CommKind::kSplit) {
    const int colors = int(d.between(1, 3));
    for (int r = 0; r < world_size; ++r) {
      c->color.push_back(d.chance(10) ? -1 : int(d.below(colors)));
      c->key.push_back(int(d.below(4)));  // ties keep world order
    }
  } else if (c->comm == CommKind::kCreateGroup) {
    for (int r = 0; r < world_size; ++r)
      if (d.chance(70)) c->members.push_back(r);
    if (c->members.empty()) c->members.push_back(int(d.below(world_size)));
    std::shuffle(c->members.begin(), c->members.end(), d.rng());
  }
}

void draw_hints(Draw& d, FuzzCase* c) {
  const Op op = schedule_op(c->api);
  c->mode = d.chance(30) ? "flat" : "hier";
  if (d.chance(25)) {
    std::vector<const Algorithm*> algs = algorithms_for(op);
    if (!algs.empty()) c->algorithm = d.pick(algs)->name;
  } else if (c->mode == "hier") {
    std::vector<const HierComposition*> comps = compositions_for(op);
    if (!comps.empty() && d.chance(30)) c->composition = d.pick(comps)->name;
    std::vector<std::string> inter = inter_algorithm_names(op);
    // An info key holds at most MPI_MAX_INFO_KEY - 1 characters, so the
    // hint hiercoll_reduce_scatter_inter_algorithm cannot be set (its
    // environment variable can); the draw stays, the hint goes.
    const bool key_fits = ("hiercoll_" + std::string(op_name(op)) + "_inter_algorithm").size() < MPI_MAX_INFO_KEY;
    if (!inter.empty() && d.chance(30)) {
      const std::string picked = d.pick(inter);
      if (key_fits) c->inter_algorithm = picked;
    }
  }
  if (d.chance(20)) c->segment_bytes = d.pick(std::vector<int64_t>{64, 256, 1000, 8192});
  c->online_tuning = d.chance(20);
}

// A datatype with a user operation, and the operation.
void draw_user_op(Draw& d, FuzzCase* c) {
  std::vector<std::pair<int, int>> user;  // (type, op)
  const std::vector<FuzzType>& types = fuzz_types();
  for (int t = 0; t < int(types.size()); ++t) {
    const std::vector<FuzzOp> ops = ops_for(types[t]);
    for (int o = 0; o < int(ops.size()); ++o)
      if (ops[o].user) user.emplace_back(t, o);
  }
  std::tie(c->type, c->op) = d.pick(user);
}

// Empty data (FuzzCase::empty): each rank's sides as zero-size elements or
// as no elements, half and half.  Reductions need a user operation: MPI
// defines its predefined ones on predefined datatypes only.
void draw_empty(Draw& d, int world_size, FuzzCase* c) {
  c->empty = true;
  c->recv_as_ints = false;
  ++c->count;
  for (int& n : c->counts) ++n;
  for (int& n : c->matrix) ++n;  // still symmetric
  const int kinds = int(zero_size_types().size());
  if (is_reduction(c->api)) {
    c->empty_send.assign(world_size, int(d.below(kinds)));
    c->empty_recv = c->empty_send;
    draw_user_op(d, c);
    return;
  }
  auto form = [&] { return d.chance(50) ? -1 : int(d.below(kinds)); };
  for (int r = 0; r < world_size; ++r) c->empty_send.push_back(form()), c->empty_recv.push_back(form());
}

void draw_nonblocking(Draw& d, FuzzCase* c) {
  if (!d.chance(25)) return;
  c->nonblocking = true;
  c->in_flight = d.chance(40) ? int(d.between(2, 4)) : 1;
  c->completion = static_cast<Completion>(d.below(3));
  c->free_comm = d.chance(25);
  c->persistent = d.chance(33);
}

const char* comm_kind_name(CommKind k) {
  switch (k) {
    case CommKind::kDup: return "dup";
    case CommKind::kSplit: return "split";
    case CommKind::kCreateGroup: return "create_group";
  }
  return "?";
}

std::string join(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

// Per world rank, the send and the receive side's form: the zero-size
// datatype's initial (c, v, s, r) or 0 for no elements.
std::string empty_forms(const std::vector<int>& send, const std::vector<int>& recv) {
  auto letter = [](int form) { return form < 0 ? '0' : zero_size_types()[form].name[0]; };
  std::string s;
  for (size_t r = 0; r < send.size(); ++r) s += std::string(r ? "," : "") + letter(send[r]) + letter(recv[r]);
  return s;
}

// Indexed by Completion.
constexpr const char* kCompletionNames[] = {"waitall", "wait-shuffled", "testany"};

}  // namespace

FuzzCase draw_case(uint64_t seed, int64_t index, int world_size) {
  // One generator per case, from (seed, index): cases do not depend on each other.
  std::seed_seq seq{uint32_t(seed), uint32_t(seed >> 32), uint32_t(index), uint32_t(uint64_t(index) >> 32)};
  std::mt19937_64 seeder(seq);
  Draw d(seeder());
  FuzzCase c;
  c.seed = seed;
  c.index = index;
  c.api = static_cast<ApiOp>(d.below(kFuzzedOps));
  const std::vector<FuzzType>& types = fuzz_types();
  if (is_reduction(c.api)) {
    do c.type = int(d.below(types.size()));
    while (ops_for(types[c.type]).empty());
    c.op = int(d.below(ops_for(types[c.type]).size()));
  } else if (c.api != ApiOp::kBarrier) {
    c.type = int(d.below(types.size()));
  }
  c.count = draw_count(d, is_block_op(c.api), world_size);
  for (int r = 0; r < world_size; ++r) c.counts.push_back(c.count == 0 ? 0 : int(d.between(0, c.count)));
  c.root_draw = uint32_t(d.rng()());
  c.in_place = allows_in_place(c.api) && d.chance(30);
  if (is_v_variant(c.api)) {
    draw_v_counts(d, world_size, &c);
    c.displs = static_cast<Displs>(d.below(3));
    c.displs_seed = d.rng()();
  } else if (moves_data(c.api) && !c.in_place && !types[c.type].int_offsets.empty()) {
    c.recv_as_ints = d.chance(40);
  }
  draw_comm(d, world_size, &c);
  draw_hints(d, &c);
  c.data_seed = d.rng()();
  // Drawn last, so that a seed's cases keep what is drawn above (but the
  // counts of empty data, and the datatype and operation of its reductions).
  const ApiOp rooted[] = {ApiOp::kBcast, ApiOp::kReduce, ApiOp::kGather, ApiOp::kScatter};
  if (std::find(std::begin(rooted), std::end(rooted), c.api) != std::end(rooted) && d.chance(25)) {
    c.dynamic = d.chance(50) ? "depth" : "breadth";
    if (d.chance(30)) c.dynamic_leaders = "fixed";
    c.max_delay_us = d.chance(50) ? 300 : 0;
  }
  if (c.api != ApiOp::kBarrier && d.below(16) == 0) draw_empty(d, world_size, &c);
  draw_nonblocking(d, &c);
  return c;
}

int entry_delay_us(const FuzzCase& c, int world_rank) {
  if (c.max_delay_us <= 0) return 0;
  std::mt19937_64 rng(c.data_seed + 977 * uint64_t(world_rank + 1));
  return int(rng() % uint64_t(c.max_delay_us + 1));
}

std::string FuzzCase::describe() const {
  std::ostringstream os;
  os << "case " << seed << ":" << index << " " << api_op_name(api);
  if (api != ApiOp::kBarrier) os << " type=" << fuzz_types()[type].name;
  if (op >= 0) os << " op=" << ops_for(fuzz_types()[type])[op].name;
  os << " count=" << count;
  const bool matrix_drawn = api == ApiOp::kAlltoallv || api == ApiOp::kAlltoallw;
  if (api == ApiOp::kReduceScatter || (is_v_variant(api) && !matrix_drawn)) os << " counts=" << join(counts);
  if (matrix_drawn) os << " matrix=" << join(matrix) << " (rows of " << stride << ")";
  if (is_v_variant(api))
    os << " displs=" << (displs == Displs::kInOrder ? "in-order" : displs == Displs::kGaps ? "gaps" : "shuffled");
  os << " root=" << root_draw << "%size" << (in_place ? " in-place" : "") << (recv_as_ints ? " recv-as-ints" : "")
     << " comm=" << comm_kind_name(comm);
  if (comm == CommKind::kSplit) os << "(color=" << join(color) << " key=" << join(key) << ")";
  if (comm == CommKind::kCreateGroup) os << "(" << join(members) << ")";
  os << " mode=" << mode;
  if (!algorithm.empty()) os << " algorithm=" << algorithm;
  if (!composition.empty()) os << " composition=" << composition;
  if (!inter_algorithm.empty()) os << " inter=" << inter_algorithm;
  if (segment_bytes) os << " segment=" << segment_bytes;
  if (!dynamic.empty()) os << " dynamic=" << dynamic;
  if (!dynamic_leaders.empty()) os << " dynamic_leaders=" << dynamic_leaders;
  if (online_tuning) os << " online_tuning";
  if (max_delay_us) os << " delays<=" << max_delay_us << "us";
  if (empty) os << " empty(send/recv per rank)=" << empty_forms(empty_send, empty_recv);
  if (nonblocking)
    os << (persistent ? " persistent x" : " nonblocking x") << in_flight << " " << kCompletionNames[int(completion)]
       << (free_comm ? " free-comm" : "");
  return os.str();
}

}  // namespace hiercoll::fuzz
