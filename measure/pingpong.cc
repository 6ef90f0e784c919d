#include "measure/pingpong.h"

#include <cstdio>
#include <vector>

#include "measure/clock.h"
#include "measure/stats.h"

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

struct Transfer {
  int from, to;
};

// All `transfers` at once (nonblocking sends and receives), repeated; the
// median over repetitions of the slowest participant's time (µs) on rank 0.
double concurrent_us(MPI_Comm comm, const std::vector<Transfer>& transfers, int bytes, int reps, int warmup,
                     bool quiet) {
  int rank;
  PMPI_Comm_rank(comm, &rank);
  int sends = 0, recvs = 0;
  for (const Transfer& x : transfers) {
    sends += x.from == rank;
    recvs += x.to == rank;
  }
  const bool part = sends + recvs > 0;
  std::vector<char> out(static_cast<size_t>(bytes), 1), in(static_cast<size_t>(bytes) * recvs);
  std::vector<double> t;
  PMPI_Barrier(comm);
  // The participants among themselves, so that each round starts together.
  MPI_Comm group;
  PMPI_Comm_split(comm, part ? 0 : MPI_UNDEFINED, rank, &group);
  if (part) {
    std::vector<MPI_Request> requests;
    for (int i = 0; i < warmup + reps; ++i) {
      PMPI_Barrier(group);
      const double t0 = MPI_Wtime();
      requests.clear();
      size_t slot = 0;
      for (const Transfer& x : transfers) {
        requests.emplace_back();
        if (x.to == rank)
          PMPI_Irecv(in.data() + bytes * slot++, bytes, MPI_BYTE, x.from, kTag, comm, &requests.back());
        else if (x.from == rank)
          PMPI_Isend(out.data(), bytes, MPI_BYTE, x.to, kTag, comm, &requests.back());
        else
          requests.pop_back();
      }
      PMPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
      double mine = (MPI_Wtime() - t0) * 1e6, slowest = 0;
      PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, group);
      if (i >= warmup) t.push_back(slowest);
    }
    PMPI_Comm_free(&group);
  }
  MPI_Request request;
  PMPI_Ibarrier(comm, &request);
  wait_request(&request, quiet);
  return t.empty() ? 0 : median(t);
}

// The link figures of `transfers` all at once; beta counts their bytes together.
Link measure_concurrent(MPI_Comm comm, const std::vector<Transfer>& transfers, bool quiet) {
  const double small = concurrent_us(comm, transfers, kSmall, 50, 5, quiet);
  const double large = concurrent_us(comm, transfers, kLarge, 10, 2, quiet);
  const double n = static_cast<double>(transfers.size());
  Link l;
  l.measured = true;
  l.alpha_us = small;
  l.beta_bytes_per_us = large > small ? n * (kLarge - kSmall) / (large - small) : 0;
  return l;
}

// Every node's lowest rank sends to the next node's (a ring).
std::vector<Transfer> master_ring(const Machine& m) {
  std::vector<Transfer> ring;
  const int nodes = m.layout.nodes;
  for (int n = 0; n < nodes; ++n)
    ring.push_back({m.ranks_of_node(n).front(), m.ranks_of_node((n + 1) % nodes).front()});
  return ring;
}

// Every rank of node `from` sends to a rank of node `to` (round-robin).
std::vector<Transfer> node_to_node(const Machine& m, int from, int to) {
  const std::vector<int> src = m.ranks_of_node(from), dst = m.ranks_of_node(to);
  std::vector<Transfer> x;
  for (size_t i = 0; i < src.size(); ++i) x.push_back({src[i], dst[i % dst.size()]});
  return x;
}

}  // namespace

Links measure_links(MPI_Comm ctrl, const Machine& m) {
  Links links;
  const std::vector<int> node0 = m.ranks_of_node(m.node_of[0]);
  if (node0.size() > 1) links.intra = measure(ctrl, 0, node0[1], m.oversubscribed);
  if (m.layout.nodes > 1) {
    const int other = m.node_of[0] == 0 ? 1 : 0;
    links.inter = measure(ctrl, 0, m.ranks_of_node(other).front(), m.oversubscribed);
    // The ring's beta is per link: its transfers' sum over their number.
    links.inter_busy = measure_concurrent(ctrl, master_ring(m), m.oversubscribed);
    links.inter_busy.beta_bytes_per_us /= m.layout.nodes;
    links.node_out = measure_concurrent(ctrl, node_to_node(m, m.node_of[0], other), m.oversubscribed);
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
  if (links.node_out.measured) {
    std::snprintf(buf, sizeof buf, "; node %d's %zu ranks sending at once to node %d: %.1f µs + %.0f MB/s together",
                  m.node_of[0], m.ranks_of_node(m.node_of[0]).size(), m.node_of[0] == 0 ? 1 : 0,
                  links.node_out.alpha_us, links.node_out.beta_bytes_per_us);
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
