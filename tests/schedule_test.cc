// The schedule core: hazard-derived dependencies, in-place aliasing, views,
// message sequence numbers, and that pipelined schedules really pipeline.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "algorithms/bcast.h"
#include "algorithms/registry.h"
#include "schedule/builder.h"

namespace hiercoll {
namespace {

std::vector<int32_t> deps_of(const Schedule& s, int step) {
  const Step& st = s.steps[step];
  return std::vector<int32_t>(s.deps.begin() + st.dep_begin, s.deps.begin() + st.dep_begin + st.dep_count);
}

// Whether step `later` transitively depends on step `earlier`.
bool depends_on(const Schedule& s, int later, int earlier) {
  std::vector<int> stack{later};
  std::vector<bool> seen(s.steps.size(), false);
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    for (int d : deps_of(s, x)) {
      if (d == earlier) return true;
      if (!seen[d]) seen[d] = true, stack.push_back(d);
    }
  }
  return false;
}

TEST(Builder, HazardsBecomeDependencies) {
  ScheduleBuilder b;
  const int r0 = b.recv(1, Span{Buf::kRecv, 0, 10});    // writes [0,10)
  const int s0 = b.send(2, Span{Buf::kRecv, 0, 5});     // reads [0,5): after r0 (RAW)
  const int s1 = b.send(3, Span{Buf::kRecv, 5, 5});     // reads [5,10): after r0, not s0
  const int r1 = b.recv(1, Span{Buf::kRecv, 3, 4});     // writes [3,7): after r0 (WAW), s0 and s1 (WAR)
  const int s2 = b.send(2, Span{Buf::kRecv, 20, 1});    // untouched units: no dependency
  const Schedule s = b.finish();
  EXPECT_EQ(deps_of(s, s0), std::vector<int32_t>{r0});
  EXPECT_EQ(deps_of(s, s1), std::vector<int32_t>{r0});
  std::vector<int32_t> expect{r0, s0, s1};
  EXPECT_EQ(deps_of(s, r1), expect);
  EXPECT_TRUE(deps_of(s, s2).empty());
  // Sequence numbers per peer and direction, in listing order.
  EXPECT_EQ(s.steps[r0].seq, 0);
  EXPECT_EQ(s.steps[r1].seq, 1);
  EXPECT_EQ(s.steps[s0].seq, 0);
  EXPECT_EQ(s.steps[s2].seq, 1);
  EXPECT_EQ(s.steps[s1].seq, 0);
}

// A receive is posted after the last send to the same peer listed before
// it (the MPI executor's posting order); nothing else waits that way.
TEST(Builder, ReceivesWaitForTheSendOfTheirExchange) {
  ScheduleBuilder b;
  const int r0 = b.recv(1, Span{Buf::kRecv, 0, 1});  // no send to 1 before it
  const int s0 = b.send(1, Span{Buf::kSend, 0, 1});
  const int s1 = b.send(1, Span{Buf::kSend, 1, 1});
  const int r1 = b.recv(1, Span{Buf::kRecv, 1, 1});  // after s1, the latest
  const int r2 = b.recv(2, Span{Buf::kRecv, 2, 1});  // another peer: free
  const int s2 = b.send(2, Span{Buf::kSend, 2, 1});
  const int c0 = b.copy(Span{Buf::kSend, 3, 1}, Span{Buf::kRecv, 3, 1});
  const Schedule s = b.finish();
  ASSERT_EQ(s.post_after.size(), s.steps.size());
  EXPECT_EQ(s.post_after[r0], -1);
  EXPECT_EQ(s.post_after[r1], s1);
  EXPECT_EQ(s.post_after[r2], -1);
  for (int id : {s0, s1, s2, c0}) EXPECT_EQ(s.post_after[id], -1) << id;
}

// A schedule whose steps wait for nothing is one round, and its steps are
// listed by kind (sends, receives, local steps; each in schedule order)
// for the MPI executor's one-round path; one dependency makes it more.
TEST(Builder, OneRoundListsStepsByKind) {
  ScheduleBuilder b;
  const int r0 = b.recv(1, Span{Buf::kRecv, 1, 1});
  const int s0 = b.send(2, Span{Buf::kSend, 0, 1});
  const int c0 = b.copy(Span{Buf::kSend, 0, 1}, Span{Buf::kRecv, 0, 1});
  const int r1 = b.recv(2, Span{Buf::kRecv, 2, 1});
  const int s1 = b.send(1, Span{Buf::kSend, 0, 1});
  const Schedule s = b.finish();
  EXPECT_TRUE(s.one_round);
  EXPECT_EQ(s.sends, 2);
  EXPECT_EQ(s.receives, 2);
  EXPECT_EQ(s.by_kind, (std::vector<int32_t>{s0, s1, r0, r1, c0}));

  ScheduleBuilder chained;
  chained.recv(1, Span{Buf::kRecv, 0, 1});
  chained.send(2, Span{Buf::kRecv, 0, 1});  // forwards what was received
  const Schedule t = chained.finish();
  EXPECT_FALSE(t.one_round);
  EXPECT_EQ(t.sends, 1);
  EXPECT_EQ(t.receives, 1);
}

TEST(Builder, SendAliasTracksSendAsRecv) {
  // In place: Send unit i is Recv unit 4 + i.
  ScheduleBuilder b(/*send_alias=*/4);
  const int w = b.recv(1, Span{Buf::kRecv, 5, 1});
  const int r = b.send(2, Span{Buf::kSend, 1, 1});  // Recv unit 5: after the write
  const Schedule s = b.finish();
  EXPECT_EQ(deps_of(s, r), std::vector<int32_t>{w});
  // Not in place: Send is never written, so reading it waits for nothing.
  ScheduleBuilder c;
  c.recv(1, Span{Buf::kRecv, 5, 1});
  c.send(2, Span{Buf::kSend, 1, 1});
  EXPECT_TRUE(deps_of(c.finish(), 1).empty());
}

TEST(Builder, ViewsMapPeersAndBuffers) {
  ScheduleBuilder b;
  const std::vector<int> ranks{7, 3, 9};
  {
    ScopedView v(b, BuilderView{&ranks, Buf::kRecv, 100, Buf::kTmp, 50});
    b.send(2, Span{Buf::kSend, 1, 2});
    b.recv(1, Span{Buf::kRecv, 0, 4});
  }
  b.send(2, Span{Buf::kRecv, 0, 1});  // view restored
  const Schedule s = b.finish();
  EXPECT_EQ(s.steps[0].peer, 9);
  EXPECT_EQ(s.steps[0].src.buf, Buf::kRecv);
  EXPECT_EQ(s.steps[0].src.off, 101);
  EXPECT_EQ(s.steps[1].peer, 3);
  EXPECT_EQ(s.steps[1].dst.buf, Buf::kTmp);
  EXPECT_EQ(s.steps[1].dst.off, 50);
  EXPECT_EQ(s.steps[2].peer, 2);
}

TEST(Builder, OrderedReduceWritesItsSource) {
  ScheduleBuilder b;
  const Span t = b.tmp(3);
  const int red = b.reduce(t, Span{Buf::kRecv, 0, 3}, /*src_first=*/false);
  const int next = b.recv(1, t);  // must wait: the reduce used t as scratch
  const Schedule s = b.finish();
  EXPECT_EQ(deps_of(s, next), std::vector<int32_t>{red});
  EXPECT_EQ(s.tmp_units, 3);
}

// In a pipelined broadcast a middle rank of the chain forwards segment k
// while segment k+1 is still arriving: segment k's send depends on its own
// receive only, and no receive waits for any send.
TEST(Pipelining, ChainOverlapsSegments) {
  const Algorithm* chain = find_algorithm(Op::kBcast, "chain");
  ASSERT_NE(chain, nullptr);
  CollArgs a;
  a.op = Op::kBcast;
  a.size = 5;
  a.rank = 2;
  a.root = 0;
  a.count = 100;
  a.seg_units = 10;
  const Schedule s = build_schedule(*chain, a);
  std::vector<int> recvs, sends;
  for (size_t i = 0; i < s.steps.size(); ++i)
    (s.steps[i].kind == StepKind::kRecv ? recvs : sends).push_back(int(i));
  ASSERT_EQ(recvs.size(), 10u);
  ASSERT_EQ(sends.size(), 10u);
  for (int r : recvs)
    for (int snd : sends) EXPECT_FALSE(depends_on(s, r, snd)) << "receive " << r << " waits for send " << snd;
  for (int k = 0; k < 10; ++k) {
    EXPECT_TRUE(depends_on(s, sends[k], recvs[k]));
    for (int later = k + 1; later < 10; ++later) EXPECT_FALSE(depends_on(s, sends[k], recvs[later]));
  }
}

TEST(Registry, NamesAreUniquePerOperation) {
  const auto& all = all_algorithms();
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i + 1; j < all.size(); ++j)
      EXPECT_FALSE(all[i].op == all[j].op && std::string(all[i].name) == all[j].name) << all[i].name;
  for (int op = 0; op < kNumOps; ++op) EXPECT_FALSE(algorithms_for(static_cast<Op>(op)).empty()) << op;
}

// Every row of the list names the file that holds its generator, named as
// the algorithm: <op>_<name>.cc, gather and scatter's mirrored pairs in
// gather_scatter_<name>.cc, a segmented variant with its base, exscan with
// scan, a v-variant with its block collective (algorithms/registry_list.cc).
TEST(Registry, EveryAlgorithmNamesItsFile) {
  auto families = [](Op op) -> std::vector<std::string> {
    switch (op) {
      case Op::kExscan: return {"scan"};
      case Op::kGather: case Op::kGatherv: return {"gather", "gather_scatter"};
      case Op::kScatter: case Op::kScatterv: return {"scatter", "gather_scatter"};
      case Op::kAllgatherv: return {"allgather"};
      case Op::kAlltoallv: return {"alltoall"};
      default: return {op_name(op)};
    }
  };
  for (const Algorithm& a : all_algorithms()) {
    std::string name = a.name;
    std::vector<std::string> allowed;
    for (const std::string& f : families(a.op)) {
      allowed.push_back(f + "_" + name + ".cc");
      const size_t seg = name.rfind("_segmented");
      if (seg != std::string::npos) allowed.push_back(f + "_" + name.substr(0, seg) + ".cc");
    }
    EXPECT_NE(std::find(allowed.begin(), allowed.end(), a.file), allowed.end()) << op_name(a.op) << " " << a.name << " in " << a.file;
    std::ifstream in(std::string("algorithms/") + a.file);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("void build_"), std::string::npos) << a.file << " defines no generator";
  }
}

}  // namespace
}  // namespace hiercoll
