#include "tests/support/mpi_check.h"

#include <cstring>
#include <sstream>
#include <vector>

#include "call_by_op/call_by_op.h"

namespace hiercoll::testing {

std::string MpiCase::describe() const {
  std::ostringstream os;
  os << api_op_name(api) << " " << data->name << " count=" << count << " root=" << root
     << (in_place ? " in-place" : "") << (gaps ? " gaps" : "");
  return os.str();
}

std::string TypedCase::describe() const {
  std::ostringstream os;
  os << api_op_name(api) << " " << send_type->name << " to " << recv_type->name << " doubles=" << doubles
     << " root=" << root;
  return os.str();
}

std::vector<TypedCase> typed_pairs(ApiOp api, int doubles, int root) {
  static const char* const kPairs[][2] = {{"contiguous3", "double"}, {"vector3", "double"}, {"permuted3", "dup_chain3"}};
  std::vector<TypedCase> v;
  for (const auto& p : kPairs)
    for (int first = 0; first < 2; ++first)
      v.push_back(TypedCase{api, &typed_case(p[1 - first]), &typed_case(p[first]), doubles, root});
  return v;
}

MPI_Comm world_with_hints(const std::vector<std::pair<const char*, const char*>>& hints) {
  MPI_Info info;
  MPI_Info_create(&info);
  for (const auto& [k, v] : hints) MPI_Info_set(info, k, v);
  MPI_Comm c;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
  MPI_Info_free(&info);
  return c;
}

bool allows_in_place(ApiOp api) { return api != ApiOp::kBcast && api != ApiOp::kBarrier; }
bool is_rooted(ApiOp api) {
  return api == ApiOp::kBcast || api == ApiOp::kReduce || api == ApiOp::kGather || api == ApiOp::kScatter ||
         api == ApiOp::kGatherv || api == ApiOp::kScatterv;
}
bool is_vector(ApiOp api) {
  return api == ApiOp::kGatherv || api == ApiOp::kScatterv || api == ApiOp::kAllgatherv || api == ApiOp::kAlltoallv ||
         api == ApiOp::kAlltoallw;
}

std::string compare_with_native(const MpiCase& c, MPI_Comm comm, Via via) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const DataCase& d = *c.data;
  if (is_vector(c.api))
    return compare_vector_with_native(c.api, d, d, c.count, 0, c.root, c.in_place, c.gaps, comm, via);
  const bool root = rank == c.root;
  const int n = c.count;
  // Irregular counts for reduce_scatter: n, n+1, n+2, ... (zeros when n == 0
  // for every other rank).
  std::vector<int> counts(size);
  int total = 0;
  for (int r = 0; r < size; ++r) total += counts[r] = n == 0 ? 0 : n + r % 3;

  int64_t send_n = n, recv_n = n;
  switch (c.api) {
    case ApiOp::kAllgather: case ApiOp::kGather: recv_n = int64_t(n) * size; break;
    case ApiOp::kScatter: send_n = int64_t(n) * size; break;
    case ApiOp::kAlltoall: send_n = recv_n = int64_t(n) * size; break;
    case ApiOp::kReduceScatterBlock: send_n = int64_t(n) * size; recv_n = c.in_place ? send_n : n; break;
    case ApiOp::kReduceScatter: send_n = total; recv_n = c.in_place ? total : counts[rank]; break;
    default: break;
  }
  const int salt = n % 7;
  const std::vector<char> input = input_buffer(d, rank, salt, send_n);
  MPI_Aint lb, ext;
  MPI_Type_get_extent(d.type, &lb, &ext);

  std::vector<char> results[2];
  for (int native = 0; native < 2; ++native) {
    std::vector<char> send = input;
    std::vector<char> recv = sentinel_buffer(d, recv_n);
    char* s = static_cast<char*>(elem0(d, send));
    char* r = static_cast<char*>(elem0(d, recv));
    const void* sendbuf = s;
    void* recvbuf = r;
    if (c.api == ApiOp::kBcast && root) std::memcpy(recv.data(), input.data(), input.size());
    if (c.in_place) {
      switch (c.api) {
        case ApiOp::kAllgather:
          fill_input(d, rank, salt, r + int64_t(rank) * n * ext, n);
          sendbuf = MPI_IN_PLACE;
          break;
        case ApiOp::kGather:
          if (root) fill_input(d, rank, salt, r + int64_t(rank) * n * ext, n), sendbuf = MPI_IN_PLACE;
          break;
        case ApiOp::kScatter:
          if (root) recvbuf = MPI_IN_PLACE;
          break;
        case ApiOp::kReduce:
          if (root) fill_input(d, rank, salt, r, n), sendbuf = MPI_IN_PLACE;
          break;
        default:  // the whole input sits in the receive buffer
          fill_input(d, rank, salt, r, send_n);
          sendbuf = MPI_IN_PLACE;
          break;
      }
    }
    CallArgs args = same_type_args(sendbuf, recvbuf, n, d.type, d.op, c.root, comm);
    args.recvcounts = counts.data();
    const int rc = call_by_op(c.api, native ? Via::kPmpi : via, args);
    if (rc != MPI_SUCCESS) return c.describe() + (native ? ": PMPI" : ": hiercoll") + " returned " + std::to_string(rc);
    if (std::memcmp(send.data(), input.data(), send.size()) != 0)
      return c.describe() + (native ? ": PMPI" : ": hiercoll") + " wrote the send buffer";
    // What MPI defines: only the root's result for rooted reductions and
    // gathers, a rank's own block for in-place reduce_scatter.
    size_t defined = recv.size();
    if ((c.api == ApiOp::kReduce || c.api == ApiOp::kGather) && !root) defined = 0;
    if (c.api == ApiOp::kExscan && rank == 0) defined = 0;
    if (c.in_place && c.api == ApiOp::kReduceScatterBlock) defined = size_t(n) * ext;
    if (c.in_place && c.api == ApiOp::kReduceScatter) defined = size_t(counts[rank]) * ext;
    recv.resize(defined);
    results[native] = recv;
  }
  if (results[0] != results[1]) {
    size_t b = 0;
    while (b < results[0].size() && results[0][b] == results[1][b]) ++b;
    return c.describe() + ": rank " + std::to_string(rank) + " differs from MPI's result at element " +
           std::to_string(b / ext);
  }
  return "";
}

std::string compare_typed_with_native(const TypedCase& c, MPI_Comm comm, Via via) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (is_vector(c.api))
    return compare_vector_with_native(c.api, *c.send_type, *c.recv_type, c.doubles / 3, 3, c.root, false, true, comm,
                                      via);
  const bool root = rank == c.root;
  const bool bcast = c.api == ApiOp::kBcast;
  const DataCase& st = *c.send_type;
  const DataCase& rt = bcast && root ? st : *c.recv_type;  // bcast: the one buffer's type
  const int sn = c.doubles / st.basics_per_elem, rn = c.doubles / rt.basics_per_elem;
  int64_t send_n = sn, recv_n = rn;
  if (c.api == ApiOp::kScatter || c.api == ApiOp::kAlltoall) send_n *= size;
  if (c.api == ApiOp::kGather || c.api == ApiOp::kAllgather || c.api == ApiOp::kAlltoall) recv_n *= size;
  const std::vector<char> input = input_buffer(st, rank, c.doubles % 7, send_n);

  std::vector<char> results[2];
  for (int native = 0; native < 2; ++native) {
    const char* who = native ? ": PMPI" : ": hiercoll";
    std::vector<char> send = input;
    std::vector<char> recv = bcast && root ? input : sentinel_buffer(rt, recv_n);
    CallArgs args;  // bcast's one buffer is the receive side's
    args.sendbuf = elem0(st, send);
    args.sendcount = sn;
    args.sendtype = st.type;
    args.recvbuf = elem0(rt, recv);
    args.recvcount = rn;
    args.recvtype = rt.type;
    args.root = c.root;
    args.comm = comm;
    const int rc = call_by_op(c.api, native ? Via::kPmpi : via, args);
    if (rc != MPI_SUCCESS) return c.describe() + who + " returned " + std::to_string(rc);
    if (send != input) return c.describe() + who + " wrote the send buffer";
    if (c.api == ApiOp::kGather && !root) recv.clear();  // undefined
    results[native] = recv;
  }
  return first_difference(results[0], results[1], c.describe(), rank);
}

std::string first_difference(const std::vector<char>& ours, const std::vector<char>& mpi, const std::string& what,
                             int rank) {
  if (ours == mpi) return "";
  size_t b = 0;
  while (b < ours.size() && b < mpi.size() && ours[b] == mpi[b]) ++b;
  return what + ": rank " + std::to_string(rank) + " differs from MPI's result at byte " + std::to_string(b);
}

}  // namespace hiercoll::testing
