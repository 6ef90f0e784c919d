// The simulator's engine on hand-made schedules: the shared node link, the
// single port per direction, full duplex, reductions, determinism and the
// errors of schedules that do not fit together.
#include <gtest/gtest.h>

#include "schedule/builder.h"
#include "sim/engine.h"

namespace hiercoll {
namespace {

CostModel model() {
  CostModel m;
  m.alpha_us = 10;
  m.bandwidth_gbps = 1;  // 1000 bytes per microsecond
  m.shm_alpha_us = 1;
  m.shm_bandwidth_gbps = 4;
  m.reduce_gbps = 0.5;
  return m;
}

const int64_t kBytes = 100000;  // 100 us on the link, 25 us in shared memory

struct Outcome {
  SimResult res;
  bool ok = false;
  std::string error;
};

Outcome run_schedules(const std::vector<Schedule>& scheds, const std::vector<int>& node_of,
                      const CostModel& m = model()) {
  Outcome r;
  const CompactSchedules compact = CompactSchedules::of(scheds);
  r.ok = simulate(SimInput{&compact, &node_of, 1}, m, &r.res, &r.error);
  return r;
}

Outcome run(const std::vector<ScheduleBuilder*>& ranks, const std::vector<int>& node_of) {
  std::vector<Schedule> scheds;
  for (ScheduleBuilder* b : ranks) scheds.push_back(b->finish());
  return run_schedules(scheds, node_of);
}

Span data(int64_t n = kBytes) { return Span{Buf::kRecv, 0, n}; }

// Four ranks of node 0 each send to their partner on node 1 at once: the
// node's link carries all four messages, so each takes four times longer.
TEST(SimEngine, RanksOfANodeShareItsLink) {
  std::vector<ScheduleBuilder> b(8);
  for (int r = 0; r < 4; ++r) {
    b[r].send(r + 4, data());
    b[r + 4].recv(r, data());
  }
  std::vector<Schedule> all;
  for (ScheduleBuilder& x : b) all.push_back(x.finish());
  const Outcome shared = run_schedules(all, {0, 0, 0, 0, 1, 1, 1, 1});
  ASSERT_TRUE(shared.ok) << shared.error;
  EXPECT_DOUBLE_EQ(shared.res.time_us, 10 + 4 * 100.0);
  EXPECT_EQ(shared.res.inter_messages, 4);
  EXPECT_EQ(shared.res.inter_bytes, 4 * kBytes);
  // The same messages from four nodes: no sharing.
  const Outcome apart = run_schedules(all, {0, 1, 2, 3, 4, 5, 6, 7});
  ASSERT_TRUE(apart.ok) << apart.error;
  EXPECT_DOUBLE_EQ(apart.res.time_us, 10 + 100.0);
}

// A flow that joins a busy link slows the one already there from then on,
// and speeds up again when the other leaves.
TEST(SimEngine, LinkShareChangesWhenFlowsComeAndGo) {
  std::vector<ScheduleBuilder> b(5);
  b[0].send(2, data());
  b[2].recv(0, data());
  // Rank 1 first receives inside its node (1 + 50000 / 4000 = 13.5 us),
  // then sends across beside rank 0.
  b[4].send(1, data(kBytes / 2));
  const int got = b[1].recv(4, Span{Buf::kTmp, 0, kBytes / 2});
  b[1].send(3, data(), {got});
  b[3].recv(1, data());
  const Outcome r = run({&b[0], &b[1], &b[2], &b[3], &b[4]}, {0, 0, 1, 1, 0});
  ASSERT_TRUE(r.ok) << r.error;
  // Rank 0's flow: 13500 bytes alone, then 86500 at half the rate (500
  // B/us): drained at 13.5 + 173 = 186.5.  Rank 1's: 86500 by then, the
  // last 13500 alone: drained at 200, received at 200 + alpha.
  EXPECT_DOUBLE_EQ(r.res.time_us, 210);
  EXPECT_DOUBLE_EQ(r.res.critical.intra_us, 13.5);
  EXPECT_DOUBLE_EQ(r.res.critical.inter_us, 196.5);
}

// One send port: three messages from rank 0 go one after the other, in the
// order rank 0 listed them; one receive port: three senders to rank 0 also
// queue.  Full duplex: an exchange costs one message time.
TEST(SimEngine, SinglePortPerDirection) {
  {
    std::vector<ScheduleBuilder> b(4);
    for (int q = 1; q <= 3; ++q) {
      b[0].send(q, data());
      b[q].recv(0, data());
    }
    const Outcome r = run({&b[0], &b[1], &b[2], &b[3]}, {0, 1, 2, 3});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(r.res.time_us, 3 * 110.0);
  }
  {
    std::vector<ScheduleBuilder> b(4);
    for (int q = 1; q <= 3; ++q) {
      b[q].send(0, data());
      b[0].recv(q, Span{Buf::kTmp, (q - 1) * kBytes, kBytes});
    }
    const Outcome r = run({&b[0], &b[1], &b[2], &b[3]}, {0, 1, 2, 3});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(r.res.time_us, 3 * 110.0);
  }
  {
    std::vector<ScheduleBuilder> b(2);
    b[0].send(1, Span{Buf::kSend, 0, kBytes});
    b[0].recv(1, data());
    b[1].send(0, Span{Buf::kSend, 0, kBytes});
    b[1].recv(0, data());
    const Outcome r = run({&b[0], &b[1]}, {0, 1});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(r.res.time_us, 110.0);
  }
}

// Simplex ports (the MPICH paper's f = 0.5): an exchange's two messages go
// one after the other, and a rank relaying along a chain cannot receive
// the next message while it sends; one-way messages cost as before.
TEST(SimEngine, SimplexPortsSerializeAnExchange) {
  CostModel m = model();
  m.simplex = true;
  {
    std::vector<ScheduleBuilder> b(2);
    b[0].send(1, Span{Buf::kSend, 0, kBytes});
    b[0].recv(1, data());
    b[1].send(0, Span{Buf::kSend, 0, kBytes});
    b[1].recv(0, data());
    const Outcome r = run_schedules({b[0].finish(), b[1].finish()}, {0, 1}, m);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(r.res.time_us, 2 * 110.0);
  }
  {
    // Rank 1 forwards rank 0's two messages to rank 2: duplex, it receives
    // the second while sending the first (3 message times); simplex, not (4).
    for (const bool simplex : {false, true}) {
      m.simplex = simplex;
      std::vector<ScheduleBuilder> b(3);
      b[0].send(1, Span{Buf::kSend, 0, kBytes});
      b[0].send(1, Span{Buf::kSend, kBytes, kBytes});
      b[1].recv(0, Span{Buf::kTmp, 0, kBytes});
      b[1].recv(0, Span{Buf::kTmp, kBytes, kBytes});
      b[1].send(2, Span{Buf::kTmp, 0, kBytes});
      b[1].send(2, Span{Buf::kTmp, kBytes, kBytes});
      b[2].recv(1, Span{Buf::kRecv, 0, kBytes});
      b[2].recv(1, Span{Buf::kRecv, kBytes, kBytes});
      const Outcome r = run_schedules({b[0].finish(), b[1].finish(), b[2].finish()}, {0, 1, 2}, m);
      ASSERT_TRUE(r.ok) << r.error;
      EXPECT_DOUBLE_EQ(r.res.time_us, (simplex ? 4 : 3) * 110.0) << (simplex ? "simplex" : "duplex");
    }
  }
  {
    m.simplex = true;
    std::vector<ScheduleBuilder> b(2);
    b[0].send(1, data());
    b[1].recv(0, data());
    const Outcome r = run_schedules({b[0].finish(), b[1].finish()}, {0, 1}, m);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(r.res.time_us, 110.0);
  }
}

// Which of two ready messages goes first is the sender's listing order: the
// first listed reaches its receiver after one message time.
TEST(SimEngine, SenderListingOrderDecides) {
  for (int first : {1, 2}) {
    std::vector<ScheduleBuilder> b(4);
    const int second = 3 - first;
    b[0].send(first, data());
    b[0].send(second, data());
    b[first].recv(0, data());
    const int got = b[second].recv(0, data());
    // The second receiver forwards: its copy ends the run.
    b[second].send(3, data(), {got});
    b[3].recv(second, data());
    const Outcome r = run({&b[0], &b[1], &b[2], &b[3]}, {0, 1, 2, 3});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(r.res.time_us, 3 * 110.0);
    EXPECT_DOUBLE_EQ(r.res.critical.inter_us, 3 * 110.0);
  }
}

// A reduction costs gamma per byte and runs beside the ports; the critical
// path splits into inter-node, intra-node and reduction time.
TEST(SimEngine, ReductionsAndCriticalPathShares) {
  std::vector<ScheduleBuilder> b(3);
  b[1].send(0, Span{Buf::kSend, 0, kBytes});                   // same node: 26 us
  const int got = b[0].recv(1, Span{Buf::kTmp, 0, kBytes});
  b[0].reduce(Span{Buf::kTmp, 0, kBytes}, data(), true, {got});  // 200 us
  b[0].send(2, data());                                         // other node: 110 us
  b[2].recv(0, data());
  const Outcome r = run({&b[0], &b[1], &b[2]}, {0, 0, 1});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_DOUBLE_EQ(r.res.time_us, 26 + 200 + 110.0);
  EXPECT_DOUBLE_EQ(r.res.critical.intra_us, 26);
  EXPECT_DOUBLE_EQ(r.res.critical.reduce_us, 200);
  EXPECT_DOUBLE_EQ(r.res.critical.inter_us, 110);
}

// With cores, the ranks sharing them queue for one, first come first
// served, to reduce and to handle each message they receive.
TEST(SimEngine, RanksWaitForTheirCores) {
  std::vector<ScheduleBuilder> b(4);
  for (ScheduleBuilder& x : b) x.reduce(Span{Buf::kSend, 0, kBytes}, data(), true, {});  // 200 us each
  std::vector<Schedule> reduces;
  for (ScheduleBuilder& x : b) reduces.push_back(x.finish());
  const std::vector<int> two_nodes = {0, 0, 1, 1};
  CostModel m = model();
  EXPECT_DOUBLE_EQ(run_schedules(reduces, two_nodes, m).res.time_us, 200);  // a core each
  m.cores = 1;  // per node: two rounds
  EXPECT_DOUBLE_EQ(run_schedules(reduces, two_nodes, m).res.time_us, 400);
  m.cores = 2;
  EXPECT_DOUBLE_EQ(run_schedules(reduces, two_nodes, m).res.time_us, 200);
  m.cores_shared_by_all = true;  // 4 ranks on 2 cores, as the emulated cluster's 8 on 2
  const Outcome all = run_schedules(reduces, two_nodes, m);
  EXPECT_DOUBLE_EQ(all.res.time_us, 400);
  EXPECT_DOUBLE_EQ(all.res.critical.reduce_us, 400);  // waiting for a core counts as the work's

  // Two messages into node 1 at once (both from node 0's link, 210 us),
  // handled 5 us each after arrival on node 1's one core: the second waits.
  std::vector<ScheduleBuilder> c(4);
  c[0].send(2, data());
  c[1].send(3, data());
  c[2].recv(0, data());
  c[3].recv(1, data());
  std::vector<Schedule> msgs;
  for (ScheduleBuilder& x : c) msgs.push_back(x.finish());
  CostModel h = model();
  h.cores = 1;
  h.message_cpu_us = 5;
  const Outcome r = run_schedules(msgs, two_nodes, h);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_DOUBLE_EQ(r.res.time_us, 10 + 200 + 5 + 5.0);
  EXPECT_DOUBLE_EQ(r.res.critical.inter_us, 220);
  h.cores = 2;
  EXPECT_DOUBLE_EQ(run_schedules(msgs, two_nodes, h).res.time_us, 10 + 200 + 5.0);
}

// The time of one message of `bytes` from rank 0 to rank 1 (on nodes
// node_of), -1 if the engine fails.
double one_message_us(int64_t bytes, const std::vector<int>& node_of, const CostModel& m) {
  std::vector<ScheduleBuilder> b(2);
  b[0].send(1, data(bytes));
  b[1].recv(0, data(bytes));
  const Outcome r = run_schedules({b[0].finish(), b[1].finish()}, node_of, m);
  return r.ok ? r.res.time_us : -1;
}

// At the eager limit a message goes by rendezvous: one round trip of the
// latency (2 alpha between nodes, 2 alpha_shm inside one) before its data.
TEST(SimEngine, RendezvousAtTheEagerLimitAddsARoundTrip) {
  CostModel m = model();
  m.eager_limit = 4000;
  m.shm_eager_limit = 8000;
  EXPECT_DOUBLE_EQ(one_message_us(3999, {0, 1}, m), 10 + 3.999);
  EXPECT_DOUBLE_EQ(one_message_us(4000, {0, 1}, m), 2 * 10 + 10 + 4.0);
  EXPECT_DOUBLE_EQ(one_message_us(7999, {0, 0}, m), 1 + 7999 / 4000.0);
  EXPECT_DOUBLE_EQ(one_message_us(8000, {0, 0}, m), 2 * 1 + 1 + 2.0);
  // Limit 0: every message eager (the papers' model).
  m.eager_limit = m.shm_eager_limit = 0;
  EXPECT_DOUBLE_EQ(one_message_us(kBytes, {0, 1}, m), 10 + 100.0);
  EXPECT_DOUBLE_EQ(one_message_us(kBytes, {0, 0}, m), 1 + 25.0);
}

// The handshake holds the sender's port: its next message starts after
// the first's round trip and transfer, and pays its own round trip.
TEST(SimEngine, RendezvousHoldsTheSendersPort) {
  CostModel m = model();
  m.eager_limit = 1000;
  std::vector<ScheduleBuilder> b(3);
  b[0].send(1, data());
  b[0].send(2, data());
  b[1].recv(0, data());
  b[2].recv(0, data());
  const Outcome r = run_schedules({b[0].finish(), b[1].finish(), b[2].finish()}, {0, 1, 2}, m);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_DOUBLE_EQ(r.res.time_us, 2 * (2 * 10 + 10 + 100.0));
}

TEST(SimEngine, SchedulesThatDoNotFitAreErrors) {
  {
    std::vector<ScheduleBuilder> b(2);
    b[1].recv(0, data());
    const Outcome r = run({&b[0], &b[1]}, {0, 1});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "message #0 from rank 0 to rank 1 is received but never sent");
  }
  {
    std::vector<ScheduleBuilder> b(2);
    b[0].send(1, data());
    b[1].recv(0, data(10));
    const Outcome r = run({&b[0], &b[1]}, {0, 1});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "message #0 from rank 0 to rank 1: 100000 units sent, 10 received");
  }
  {
    // Each waits to receive before it sends.
    std::vector<ScheduleBuilder> b(2);
    for (int r = 0; r < 2; ++r) {
      const int got = b[r].recv(1 - r, Span{Buf::kTmp, 0, 8});
      b[r].send(1 - r, data(8), {got});
    }
    const Outcome r = run({&b[0], &b[1]}, {0, 1});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error.rfind("deadlock: rank 0", 0), 0u) << r.error;
  }
}

}  // namespace
}  // namespace hiercoll
