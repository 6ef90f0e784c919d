#include "tests/support/inproc_check.h"

#include <cstring>
#include <map>
#include <numeric>
#include <sstream>
#include <tuple>

#include "algorithms/call_blocks.h"
#include "executors/buffers.h"
#include "executors/inproc_executor.h"

namespace hiercoll::testing {

bool is_block_op(Op op) {
  return op == Op::kAllgather || op == Op::kGather || op == Op::kScatter || op == Op::kAlltoall;
}

namespace {

// (Alltoallv in place is the runtime's copy of the input: runtime/plan.cc.)
bool op_allows_in_place(Op op) {
  return op != Op::kBcast && op != Op::kBarrier && op != Op::kAlltoall && op != Op::kAlltoallv;
}

// A typed buffer of n elements, sentinel-filled.
struct TypedBuf {
  std::vector<char> bytes;
  int64_t n = 0;
  void* at(const DataCase& c, int64_t elem) {
    return static_cast<char*>(elem0(c, bytes)) + elem * extent_of(c.type);
  }
};

TypedBuf make_buf(const DataCase& c, int64_t n) { return TypedBuf{sentinel_buffer(c, n), n}; }

void copy_elems(const DataCase& c, void* dst, const void* src, int64_t n) {
  if (n == 0) return;
  copy_typed(src, int(n), c.type, dst, int(n), c.type);
}

// dst[0,n) = in[lo] op in[lo+1] op ... op in[hi-1], elements [off, off+n).
void fold(const DataCase& c, std::vector<TypedBuf>& in, int lo, int hi, int64_t off, int64_t n, void* dst) {
  if (n == 0) return;
  TypedBuf acc = make_buf(c, n), next = make_buf(c, n);
  copy_elems(c, acc.at(c, 0), in[lo].at(c, off), n);
  for (int r = lo + 1; r < hi; ++r) {
    copy_elems(c, next.at(c, 0), in[r].at(c, off), n);
    MPI_Reduce_local(acc.at(c, 0), next.at(c, 0), int(n), c.type, c.op);  // next = acc op next
    std::swap(acc, next);
  }
  copy_elems(c, dst, acc.at(c, 0), n);
}

}  // namespace

std::string Scenario::describe() const {
  std::ostringstream os;
  os << op_name(the_op()) << "/" << (algo ? algo->name : name.c_str()) << " p=" << p << " root=" << root
     << " count=" << count << " " << data->name << (in_place ? " in-place" : "") << " seg=" << seg_units;
  if (!arrival.empty()) {
    os << (fill == FillOrder::kDepthFirst ? " depth-first" : " breadth-first") << " arrival=";
    for (size_t i = 0; i < arrival.size() && i < 16; ++i) os << (i ? "," : "") << arrival[i];
    if (arrival.size() > 16) os << ",...";
  }
  if (is_v_op(the_op())) os << (gaps ? " gaps" : " adjacent");
  if (!counts.empty()) {
    os << " counts=";
    for (size_t i = 0; i < counts.size() && i < 8; ++i) os << (i ? "," : "") << counts[i];
    if (counts.size() > 8) os << ",...";
  }
  return os.str();
}

bool scenario_applies(const Scenario& sc) {
  if (sc.in_place && !op_allows_in_place(sc.the_op())) return false;
  return !sc.algo || algorithm_fits(*sc.algo, scenario_args(sc, 0));
}

VectorLayout vector_layout(const Scenario& sc) { return VectorLayout{sc.p, sc.count, sc.counts, sc.gaps}; }

namespace {

// A v-variant's arguments on `rank`: the blocks MPI gives it (the rooted
// forms' arrays at the root only).
void vector_args(const Scenario& sc, int rank, CollArgs* a) {
  const VectorLayout v = vector_layout(sc);
  const Op op = a->op;
  a->count = v.block(op, rank, sc.root);
  if (op == Op::kAlltoallv) {
    v.layout([&](int j) { return v.block(op, j, rank); }, &a->counts, &a->displs);
    v.layout([&](int j) { return v.block(op, rank, j); }, &a->send_counts, &a->send_displs);
  } else if (op == Op::kAllgatherv || rank == sc.root) {
    v.layout([&](int j) { return v.block(op, j, 0); }, &a->counts, &a->displs);
  } else if (sc.needs_all_counts()) {
    std::vector<int64_t> counts, root_displs;
    v.layout([&](int j) { return v.block(op, j, 0); }, &counts, &root_displs);
    adopt_root_counts(counts, a);
  }
}

}  // namespace

CollArgs scenario_args(const Scenario& sc, int rank) {
  CollArgs a;
  a.op = sc.the_op();
  a.rank = rank;
  a.size = sc.p;
  a.root = sc.root;
  a.count = is_block_op(a.op) ? 1 : sc.count;
  a.seg_units = sc.seg_units;
  a.commutative = sc.data->commutative;
  if (a.op == Op::kReduceScatter) {
    a.counts = sc.counts.empty() ? std::vector<int64_t>(sc.p, sc.count) : sc.counts;
    a.count = a.counts[rank];
  }
  if (is_v_op(a.op)) vector_args(sc, rank, &a);
  if (sc.in_place) {
    switch (a.op) {
      case Op::kReduce: a.send_alias = rank == sc.root ? 0 : -1; break;
      case Op::kAllreduce: case Op::kScan: case Op::kExscan: case Op::kReduceScatter: a.send_alias = 0; break;
      case Op::kAllgather: a.send_alias = rank; break;
      case Op::kGather: a.send_alias = rank == sc.root ? sc.root : -1; break;
      case Op::kAllgatherv: a.send_alias = a.displs[rank]; break;
      case Op::kGatherv: a.send_alias = rank == sc.root ? a.displs[rank] : -1; break;
      default: break;  // scatter in place is handled by pointing Recv into Send
    }
  }
  return a;
}

namespace {

// Elements of a v-variant's send and receive buffers on a rank.
void vector_buffer_sizes(const CollArgs& a, int64_t* send_n, int64_t* recv_n) {
  const bool root = a.rank == a.root;
  const int64_t all = VectorLayout::extent(a.counts, a.displs);
  switch (a.op) {
    case Op::kGatherv: *send_n = a.count; *recv_n = root ? all : 0; break;
    case Op::kScatterv: *send_n = root ? all : 0; *recv_n = a.count; break;
    case Op::kAllgatherv: *send_n = a.count; *recv_n = all; break;
    default: *send_n = VectorLayout::extent(a.send_counts, a.send_displs); *recv_n = all; break;
  }
}

// What rank r's receive buffer must hold after a v-variant.
void vector_reference(const Scenario& sc, const std::vector<CollArgs>& args, std::vector<TypedBuf>& input, int r,
                      TypedBuf* expect) {
  const DataCase& c = *sc.data;
  const CollArgs& a = args[r];
  switch (a.op) {
    case Op::kGatherv:
      if (r != sc.root) break;
      [[fallthrough]];
    case Op::kAllgatherv:
      for (int j = 0; j < sc.p; ++j) copy_elems(c, expect->at(c, a.displs[j]), input[j].at(c, 0), a.counts[j]);
      break;
    case Op::kScatterv:
      if (!(sc.in_place && r == sc.root))
        copy_elems(c, expect->at(c, 0), input[sc.root].at(c, args[sc.root].displs[r]), a.count);
      break;
    default:
      for (int j = 0; j < sc.p; ++j)
        copy_elems(c, expect->at(c, a.displs[j]), input[j].at(c, args[j].send_displs[r]), a.counts[j]);
      break;
  }
}

}  // namespace

std::string check_inprocess(const Scenario& sc) {
  const DataCase& c = *sc.data;
  const Op op = sc.the_op();
  const int p = sc.p;
  const bool block = is_block_op(op);
  std::vector<int64_t> counts = sc.counts.empty() ? std::vector<int64_t>(p, sc.count) : sc.counts;
  std::vector<int64_t> displs(p + 1, 0);
  for (int r = 0; r < p; ++r) displs[r + 1] = displs[r] + counts[r];

  // Elements in each rank's send and receive buffers.
  int64_t send_n = sc.count, recv_n = sc.count;
  switch (op) {
    case Op::kAllgather: case Op::kGather: send_n = sc.count; recv_n = sc.count * p; break;
    case Op::kScatter: send_n = sc.count * p; recv_n = sc.count; break;
    case Op::kAlltoall: send_n = recv_n = sc.count * p; break;
    case Op::kReduceScatter: send_n = displs[p]; recv_n = sc.in_place ? displs[p] : 0; break;
    case Op::kBarrier: send_n = recv_n = 0; break;
    default: break;
  }

  std::vector<TypedBuf> input(p), sendb(p), recvb(p), expect(p);
  std::vector<InprocRank> ranks(p);
  InprocArrival arrival{sc.arrival, std::vector<int>(p, 0)};
  std::vector<CollArgs> args(p);
  for (int r = 0; r < p; ++r) {
    CollArgs& a = args[r];
    a = scenario_args(sc, r);
    int64_t rn = op == Op::kReduceScatter && !sc.in_place ? counts[r] : recv_n;
    if (is_v_op(op)) vector_buffer_sizes(a, &send_n, &rn);
    input[r] = make_buf(c, send_n);
    fill_input(c, r, /*salt=*/int(sc.count % 5), input[r].at(c, 0), send_n);
    sendb[r] = input[r];
    recvb[r] = make_buf(c, rn);
    const int64_t epu = block ? sc.count : 1;
    Buffers& bufs = ranks[r].bufs;
    bufs[Buf::kSend] = describe_buffer(sendb[r].at(c, 0), c.type, epu);
    bufs[Buf::kRecv] = describe_buffer(recvb[r].at(c, 0), c.type, epu);
    bufs[Buf::kTmp] = describe_buffer(nullptr, c.type, epu);
    if (op == Op::kBcast && r == sc.root) copy_elems(c, recvb[r].at(c, 0), input[r].at(c, 0), sc.count);
    if (a.send_alias >= 0) {
      // In place: the input sits in the receive buffer.
      copy_elems(c, recvb[r].at(c, a.send_alias * epu), input[r].at(c, 0), send_n);
      bufs[Buf::kSend] = describe_buffer(recvb[r].at(c, a.send_alias * epu), c.type, epu);
    }
    if (sc.in_place && op == Op::kScatter && r == sc.root)
      bufs[Buf::kRecv] = describe_buffer(sendb[r].at(c, sc.root * sc.count), c.type, epu);
    if (sc.in_place && op == Op::kScatterv && r == sc.root)
      bufs[Buf::kRecv] = describe_buffer(sendb[r].at(c, a.displs[r]), c.type, 1);
    expect[r] = recvb[r];  // untouched parts must stay as they are
    if (sc.arrival.empty()) {
      ranks[r].sched = sc.algo ? build_schedule(*sc.algo, a) : sc.build(a);
      continue;
    }
    const ArrivalTree tree = sc.tree ? sc.tree(a) : build_arrival_tree(*sc.algo, a, sc.fill);
    Placement place(tree, sc.root, sc.node_of.empty() ? nullptr : &sc.node_of);
    arrival.position[sc.root] = 0;
    for (int i = 1; i < p; ++i) arrival.position[sc.arrival[i]] = place.take(sc.arrival[i]);
    ranks[r].sched = tree.at[arrival.position[r]];
  }

  // The reference.
  for (int r = 0; r < p; ++r) {
    void* out = expect[r].at(c, 0);
    switch (op) {
      case Op::kBcast: copy_elems(c, out, input[sc.root].at(c, 0), sc.count); break;
      case Op::kReduce: if (r == sc.root) fold(c, input, 0, p, 0, sc.count, out); break;
      case Op::kAllreduce: fold(c, input, 0, p, 0, sc.count, out); break;
      case Op::kScan: fold(c, input, 0, r + 1, 0, sc.count, out); break;
      case Op::kExscan: if (r > 0) fold(c, input, 0, r, 0, sc.count, out); break;
      case Op::kReduceScatter: fold(c, input, 0, p, displs[r], counts[r], out); break;
      case Op::kAllgather:
        for (int j = 0; j < p; ++j) copy_elems(c, expect[r].at(c, j * sc.count), input[j].at(c, 0), sc.count);
        break;
      case Op::kGather:
        if (r == sc.root)
          for (int j = 0; j < p; ++j) copy_elems(c, expect[r].at(c, j * sc.count), input[j].at(c, 0), sc.count);
        break;
      case Op::kScatter:
        if (!(sc.in_place && r == sc.root)) copy_elems(c, out, input[sc.root].at(c, r * sc.count), sc.count);
        break;
      case Op::kAlltoall:
        for (int j = 0; j < p; ++j)
          copy_elems(c, expect[r].at(c, j * sc.count), input[j].at(c, r * sc.count), sc.count);
        break;
      case Op::kBarrier: break;
      case Op::kGatherv: case Op::kScatterv: case Op::kAllgatherv: case Op::kAlltoallv:
        vector_reference(sc, args, input, r, &expect[r]);
        break;
    }
  }

  std::string err;
  if (!run_inprocess(ranks, c.op, &err, sc.arrival.empty() ? nullptr : &arrival)) return sc.describe() + ": " + err;
  if (op == Op::kBarrier) {
    std::vector<Schedule> s;
    for (auto& r : ranks) s.push_back(r.sched);
    std::string e = check_barrier_causality(s);
    return e.empty() ? e : sc.describe() + ": " + e;
  }
  // In-place reduce_scatter leaves the rest of the buffer undefined.
  const MPI_Aint ext = extent_of(c.type);
  for (int r = 0; r < p; ++r) {
    size_t nbytes = recvb[r].bytes.size();
    if (op == Op::kReduceScatter && sc.in_place) nbytes = size_t(counts[r] * ext);
    if (std::memcmp(recvb[r].bytes.data(), expect[r].bytes.data(), nbytes) != 0) {
      size_t b = 0;
      while (recvb[r].bytes[b] == expect[r].bytes[b]) ++b;
      std::ostringstream os;
      os << sc.describe() << ": rank " << r << " differs from the reference at element " << b / ext << " (byte "
         << b % ext << ")";
      return os.str();
    }
    // The send buffer is never written (in-place scatter's root included).
    if (std::memcmp(sendb[r].bytes.data(), input[r].bytes.data(), sendb[r].bytes.size()) != 0)
      return sc.describe() + ": rank " + std::to_string(r) + " wrote its send buffer";
  }
  return "";
}

std::string check_barrier_causality(const std::vector<Schedule>& scheds) {
  const int p = static_cast<int>(scheds.size());
  // known[r][i]: ranks whose entry step i of rank r causally follows.
  std::vector<std::vector<std::vector<bool>>> known(p);
  std::map<std::tuple<int, int, int>, std::pair<int, int>> sends;  // (from,to,seq) -> (rank, step)
  for (int r = 0; r < p; ++r) {
    known[r].assign(scheds[r].steps.size(), std::vector<bool>(p, false));
    for (size_t i = 0; i < scheds[r].steps.size(); ++i) {
      const Step& s = scheds[r].steps[i];
      if (s.kind == StepKind::kSend) sends[{r, s.peer, s.seq}] = {r, int(i)};
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int r = 0; r < p; ++r) {
      const Schedule& s = scheds[r];
      for (size_t i = 0; i < s.steps.size(); ++i) {
        std::vector<bool> k = known[r][i];
        k[r] = true;
        for (uint32_t d = 0; d < s.steps[i].dep_count; ++d) {
          const auto& kd = known[r][s.deps[s.steps[i].dep_begin + d]];
          for (int j = 0; j < p; ++j) k[j] = k[j] || kd[j];
        }
        if (s.steps[i].kind == StepKind::kRecv) {
          auto it = sends.find({s.steps[i].peer, r, s.steps[i].seq});
          if (it != sends.end()) {
            const auto& ks = known[it->second.first][it->second.second];
            for (int j = 0; j < p; ++j) k[j] = k[j] || ks[j];
          }
        }
        if (k != known[r][i]) {
          known[r][i] = k;
          changed = true;
        }
      }
    }
  }
  for (int r = 0; r < p; ++r) {
    std::vector<bool> all(p, false);
    all[r] = true;
    for (const auto& k : known[r])
      for (int j = 0; j < p; ++j) all[j] = all[j] || k[j];
    for (int j = 0; j < p; ++j)
      if (!all[j]) return "rank " + std::to_string(r) + " can leave before rank " + std::to_string(j) + " enters";
  }
  return "";
}

}  // namespace hiercoll::testing
