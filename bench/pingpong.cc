#include "bench/pingpong.h"

#include <cstdio>
#include <vector>

#include "bench/clock.h"
#include "bench/stats.h"

namespace hcbench {

namespace {

constexpr int kTag = 7312;
constexpr int kSmall = 8;
constexpr int kLarge = 4 << 20;

// Median one-way time (µs) of `bytes` between ranks a and b; every rank
// calls it, those other than a and b only wait at the barrier.
double one_way_us(MPI_Comm comm, int a, int b, int bytes, int reps, int warmup, bool quiet) {
  int rank;
  PMPI_Comm_rank(comm, &rank);
  std::vector<char> buf(static_cast<size_t>(bytes), 1);
  std::vector<double> rtt;
  PMPI_Barrier(comm);
  if (rank == a || rank == b) {
    const int peer = rank == a ? b : a;
    for (int i = 0; i < warmup + reps; ++i) {
      const double t0 = MPI_Wtime();
      if (rank == a) {
        PMPI_Send(buf.data(), bytes, MPI_BYTE, peer, kTag, comm);
        PMPI_Recv(buf.data(), bytes, MPI_BYTE, peer, kTag, comm, MPI_STATUS_IGNORE);
      } else {
        PMPI_Recv(buf.data(), bytes, MPI_BYTE, peer, kTag, comm, MPI_STATUS_IGNORE);
        PMPI_Send(buf.data(), bytes, MPI_BYTE, peer, kTag, comm);
      }
      if (i >= warmup) rtt.push_back((MPI_Wtime() - t0) * 1e6 / 2);
    }
  }
  // The other ranks sleep meanwhile (they would steal cores when oversubscribed).
  MPI_Request request;
  PMPI_Ibarrier(comm, &request);
  wait_request(&request, quiet);
  return rtt.empty() ? 0 : median(rtt);
}

Link measure(MPI_Comm comm, int a, int b, bool quiet) {
  Link l;
  const double small = one_way_us(comm, a, b, kSmall, 200, 20, quiet);
  const double large = one_way_us(comm, a, b, kLarge, 15, 3, quiet);
  l.measured = true;
  l.alpha_us = small;
  l.beta_bytes_per_us = large > small ? (kLarge - kSmall) / (large - small) : 0;
  return l;
}

// Every node's lowest rank sends `bytes` to the next node's and receives
// from the previous one's, all at once; median one-way time (µs) on rank 0.
double ring_us(MPI_Comm comm, const Machine& m, int bytes, int reps, int warmup) {
  int rank;
  PMPI_Comm_rank(comm, &rank);
  const int nodes = m.layout.nodes;
  const int node = m.node_of[rank];
  const bool master = m.ranks_of_node(node).front() == rank;
  std::vector<char> out(static_cast<size_t>(bytes), 1), in(static_cast<size_t>(bytes));
  std::vector<double> t;
  PMPI_Barrier(comm);
  if (master) {
    const int next = m.ranks_of_node((node + 1) % nodes).front();
    const int prev = m.ranks_of_node((node + nodes - 1) % nodes).front();
    // The masters among themselves, so that each round starts together.
    MPI_Comm masters;
    PMPI_Comm_split(comm, 0, rank, &masters);
    for (int i = 0; i < warmup + reps; ++i) {
      PMPI_Barrier(masters);
      const double t0 = MPI_Wtime();
      PMPI_Sendrecv(out.data(), bytes, MPI_BYTE, next, kTag, in.data(), bytes, MPI_BYTE, prev, kTag, comm,
                    MPI_STATUS_IGNORE);
      double mine = (MPI_Wtime() - t0) * 1e6, slowest = 0;
      PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, masters);
      if (i >= warmup) t.push_back(slowest);
    }
    PMPI_Comm_free(&masters);
  } else {
    MPI_Comm none;
    PMPI_Comm_split(comm, MPI_UNDEFINED, rank, &none);
  }
  MPI_Request request;
  PMPI_Ibarrier(comm, &request);
  wait_request(&request, m.oversubscribed);
  return t.empty() ? 0 : median(t);
}

}  // namespace

Links measure_links(MPI_Comm ctrl, const Machine& m) {
  Links links;
  const std::vector<int> node0 = m.ranks_of_node(m.node_of[0]);
  if (node0.size() > 1) links.intra = measure(ctrl, 0, node0[1], m.oversubscribed);
  if (m.layout.nodes > 1) {
    const int other = m.node_of[0] == 0 ? 1 : 0;
    links.inter = measure(ctrl, 0, m.ranks_of_node(other).front(), m.oversubscribed);
    const double small = ring_us(ctrl, m, kSmall, 50, 5);
    const double large = ring_us(ctrl, m, kLarge, 10, 2);
    links.inter_busy.measured = true;
    links.inter_busy.alpha_us = small;
    links.inter_busy.beta_bytes_per_us = large > small ? (kLarge - kSmall) / (large - small) : 0;
  }
  return links;
}

std::string describe_links(const Links& links, const Machine& m) {
  std::string s;
  char buf[256];
  if (links.inter.measured) {
    std::snprintf(buf, sizeof buf, "inter-node %.1f µs + %.0f MB/s (ranks 0 and %d)", links.inter.alpha_us,
                  links.inter.beta_bytes_per_us, m.ranks_of_node(m.node_of[0] == 0 ? 1 : 0).front());
    s += buf;
  }
  if (links.inter_busy.measured) {
    std::snprintf(buf, sizeof buf, "; inter-node, all %d nodes sending at once: %.1f µs + %.0f MB/s",
                  m.layout.nodes, links.inter_busy.alpha_us, links.inter_busy.beta_bytes_per_us);
    s += buf;
  }
  if (links.intra.measured) {
    std::snprintf(buf, sizeof buf, "%sintra-node %.2f µs + %.0f MB/s (ranks 0 and %d)", s.empty() ? "" : "; ",
                  links.intra.alpha_us, links.intra.beta_bytes_per_us, m.ranks_of_node(m.node_of[0])[1]);
    s += buf;
  }
  return s.empty() ? "no link to measure (one rank)" : s;
}

}  // namespace hcbench
