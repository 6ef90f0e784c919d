#include "decide/native_rules.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "select/tuning_file.h"

namespace hiercoll {

namespace {

constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
constexpr int kAnyP = std::numeric_limits<int>::max();

// Below `bytes`, coll/tuned runs algorithm `alg` (its own numbering).
struct Cut {
  int64_t bytes;
  int alg;
};
// On communicators of fewer than `p` ranks (and more than the previous
// bracket's), the cuts in order.
struct Bracket {
  int p;
  std::vector<Cut> cuts;
};
// What coll/tuned's algorithm number k is here: its name, and the
// registry's algorithm of the same shape ("" where none).
struct Shape {
  const char* ompi;
  const char* ours;
  bool unsegmented;  // coll/tuned's fixed rules pass segment size 0: one segment
};
struct OpRules {
  Op op;
  std::vector<Shape> shapes;  // [k - 1]
  std::vector<Bracket> commutative, non_commutative;  // non_commutative empty: as commutative
};

// Open MPI 4.1, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c.
const std::vector<OpRules>& rules() {
  static const std::vector<OpRules> r = {
      {Op::kAllreduce,
       {{"basic_linear", "", false}, {"nonoverlapping", "reduce_bcast", false},
        {"recursive_doubling", "recursive_doubling", false}, {"ring", "ring", false},
        {"segmented_ring", "ring", false}, {"rabenseifner", "rabenseifner", false}},
       {{4, {{8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5}, {kAny, 6}}},
        {8, {{16, 4}, {8192, 3}, {kAny, 6}}},
        {16, {{8192, 3}, {kAny, 6}}},
        {32, {{64, 5}, {4096, 3}, {kAny, 6}}},
        {64, {{128, 5}, {kAny, 6}}},
        {128, {{262144, 3}, {kAny, 6}}},
        {256, {{131072, 2}, {262144, 3}, {kAny, 6}}},
        {512, {{4096, 2}, {kAny, 6}}},
        {2048, {{2048, 2}, {16384, 3}, {kAny, 6}}},
        {4096, {{2048, 2}, {4096, 5}, {16384, 3}, {kAny, 6}}},
        {kAnyP, {{2048, 2}, {16384, 5}, {32768, 3}, {kAny, 6}}}},
       {{4, {{131072, 3}, {kAny, 1}}},
        {8, {{kAny, 3}}},
        {16, {{1048576, 3}, {kAny, 2}}},
        {128, {{kAny, 3}}},
        {256, {{131072, 2}, {524288, 3}, {kAny, 2}}},
        {512, {{4096, 2}, {524288, 3}, {kAny, 2}}},
        {kAnyP, {{2048, 2}, {kAny, 3}}}}},
      {Op::kBcast,
       {{"basic_linear", "linear", true}, {"chain", "", false}, {"pipeline", "chain", true},
        {"split_binary_tree", "", false}, {"binary_tree", "pipelined_binary_tree", true},
        {"binomial", "binomial", false}, {"knomial", "", false},
        {"scatter_allgather", "scatter_recursive_doubling", false},
        {"scatter_allgather_ring", "scatter_ring", false}},
       {{4, {{32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1}, {131072, 5}, {262144, 2}, {524288, 1},
             {1048576, 6}, {kAny, 5}}},
        {8, {{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}, {kAny, 2}}},
        {16, {{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}, {kAny, 1}}},
        {32, {{4096, 7}, {1048576, 6}, {kAny, 8}}},
        {64, {{2048, 6}, {kAny, 7}}},
        {128, {{kAny, 7}}},
        {256, {{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}, {kAny, 7}}},
        {1024, {{16384, 7}, {32768, 4}, {kAny, 7}}},
        {2048, {{524288, 7}, {kAny, 8}}},
        {4096, {{262144, 7}, {kAny, 8}}},
        {kAnyP, {{8192, 7}, {16384, 5}, {262144, 7}, {kAny, 8}}}},
       {}},
      {Op::kReduce,
       {{"linear", "gather_reduce", false}, {"chain", "", false}, {"pipeline", "chain", true},
        {"binary", "pipelined_binary_tree", true}, {"binomial", "binomial", false},
        {"in-order_binary", "pipelined_binary_tree", true}, {"rabenseifner", "rabenseifner", false}},
       {{4, {{8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2}, {kAny, 3}}},
        {8, {{4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5}, {kAny, 1}}},
        {16, {{8192, 4}, {kAny, 5}}},
        {32, {{4096, 4}, {kAny, 5}}},
        {256, {{kAny, 5}}},
        {512, {{8192, 5}, {16384, 6}, {kAny, 5}}},
        {2048, {{kAny, 5}}},
        {4096, {{512, 5}, {1024, 6}, {8192, 5}, {16384, 6}, {kAny, 5}}},
        {kAnyP, {{16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6}, {kAny, 5}}}},
       {{4, {{8, 6}, {kAny, 1}}},
        {8, {{kAny, 1}}},
        {16, {{1024, 6}, {8192, 1}, {16384, 6}, {262144, 1}, {kAny, 6}}},
        {128, {{kAny, 6}}},
        {256, {{512, 6}, {1024, 1}, {kAny, 6}}},
        {kAnyP, {{kAny, 6}}}}},
      {Op::kAllgather,
       {{"linear", "", false}, {"bruck", "bruck", false}, {"recursive_doubling", "recursive_doubling", false},
        {"ring", "ring", false}, {"neighbor", "", false}, {"two_proc", "ring", false}},
       {{3, {{kAny, 6}}},
        {32, {{kAny, 3}}},
        {64, {{1024, 3}, {65536, 5}, {kAny, 4}}},
        {128, {{512, 3}, {65536, 5}, {kAny, 4}}},
        {256, {{512, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {kAny, 4}}},
        {512, {{32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {kAny, 4}}},
        {1024, {{64, 3}, {256, 2}, {2048, 3}, {kAny, 5}}},
        {2048, {{4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3}, {kAny, 5}}},
        {4096, {{32, 2}, {128, 3}, {512, 2}, {4096, 3}, {kAny, 5}}},
        {kAnyP, {{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3}, {kAny, 5}}}},
       {}},
      {Op::kAlltoall,
       {{"linear", "scattered", false}, {"pairwise", "pairwise", false}, {"modified_bruck", "bruck", false},
        {"linear_sync", "scattered", false}, {"two_proc", "pairwise", false}},
       {{3, {{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2}, {4096, 5}, {32768, 2}, {262144, 4}, {1048576, 5},
             {kAny, 2}}},
        {8, {{8192, 4}, {16384, 1}, {65536, 4}, {524288, 1}, {1048576, 2}, {kAny, 1}}},
        {16, {{262144, 4}, {kAny, 1}}},
        {32, {{4, 4}, {512, 3}, {8192, 4}, {32768, 1}, {262144, 4}, {524288, 1}, {kAny, 4}}},
        {64, {{512, 3}, {524288, 1}, {kAny, 4}}},
        {128, {{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}, {kAny, 2}}},
        {256, {{1024, 3}, {2048, 4}, {262144, 1}, {kAny, 2}}},
        {512, {{1024, 3}, {8192, 4}, {32768, 1}, {kAny, 2}}},
        {1024, {{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}, {kAny, 2}}},
        {2048, {{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}, {kAny, 4}}},
        {4096, {{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}, {kAny, 1}}},
        {kAnyP, {{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}, {kAny, 4}}}},
       {}},
      {Op::kBarrier,
       {{"linear", "", false}, {"double_ring", "", false}, {"recursive_doubling", "recursive_doubling", false},
        {"bruck", "dissemination", false}, {"two_proc", "recursive_doubling", false}, {"tree", "", false}},
       {{4, {{kAny, 3}}},
        {8, {{kAny, 1}}},
        {64, {{kAny, 3}}},
        {256, {{kAny, 4}}},
        {512, {{kAny, 6}}},
        {1024, {{kAny, 4}}},
        {4096, {{kAny, 6}}},
        {kAnyP, {{kAny, 4}}}},
       {}},
      {Op::kGather,
       {{"basic_linear", "linear", false}, {"binomial", "binomial", false}, {"linear_sync", "linear", false}},
       {{4, {{2, 3}, {4, 1}, {32768, 2}, {65536, 1}, {131072, 2}, {kAny, 3}}},
        {8, {{1024, 2}, {8192, 1}, {32768, 2}, {262144, 1}, {kAny, 3}}},
        {256, {{kAny, 2}}},
        {512, {{2048, 2}, {8192, 1}, {kAny, 2}}},
        {kAnyP, {{kAny, 2}}}},
       {}},
      {Op::kScatter,
       {{"basic_linear", "linear", false}, {"binomial", "binomial", false}, {"linear_nb", "linear", false}},
       {{4, {{2, 3}, {131072, 1}, {262144, 3}, {kAny, 1}}},
        {8, {{2048, 2}, {4096, 1}, {8192, 2}, {32768, 1}, {1048576, 3}, {kAny, 1}}},
        {16, {{16384, 2}, {1048576, 3}, {kAny, 1}}},
        {32, {{16384, 2}, {32768, 1}, {kAny, 3}}},
        {64, {{512, 2}, {8192, 3}, {16384, 2}, {kAny, 3}}},
        {kAnyP, {{512, 2}, {kAny, 3}}}},
       {}},
      // coll/tuned has no scan: coll/basic's linear one, rank i - 1 to rank i.
      {Op::kScan, {{"basic_linear", "chain", true}}, {{kAnyP, {{kAny, 1}}}}, {}},
      {Op::kExscan, {{"basic_linear", "chain", true}}, {{kAnyP, {{kAny, 1}}}}, {}},
  };
  return r;
}

int pick(const std::vector<Bracket>& brackets, int p, int64_t bytes) {
  for (const Bracket& b : brackets)
    if (p < b.p)
      for (const Cut& c : b.cuts)
        if (bytes < c.bytes) return c.alg;
  return 0;
}

bool power_of_two(int p) { return p > 0 && (p & (p - 1)) == 0; }

}  // namespace

NativeAlgorithm native_algorithm(const SimCall& call) {
  NativeAlgorithm out;
  const CollArgs& a = call.args;
  for (const OpRules& r : rules()) {
    if (r.op != a.op) continue;
    const bool nc = !a.commutative && !r.non_commutative.empty();
    const int k = pick(nc ? r.non_commutative : r.commutative, a.size, tuning_bytes(a.op, call.unit_bytes, a));
    if (k < 1 || k > static_cast<int>(r.shapes.size())) return out;
    const Shape& s = r.shapes[static_cast<size_t>(k - 1)];
    out.ompi_name = s.ompi;
    if (!*s.ours) return out;
    out.costed = true;
    out.as.method.kind = Method::kFlat;
    out.as.method.name = s.ours;
    // coll/tuned's recursive-doubling allgather runs Bruck's on other sizes.
    if (a.op == Op::kAllgather && out.as.method.name == "recursive_doubling" && !power_of_two(a.size))
      out.as.method.name = "bruck";
    if (s.unsegmented) out.as.segment_bytes = std::max<int64_t>(1, call.unit_bytes * a.count);
    return out;
  }
  return out;
}

}  // namespace hiercoll
