#include "tune/machine_figures.h"

#include <algorithm>
#include <vector>

#include "measure/pingpong.h"

namespace hctune {

namespace {

// Bytes of input per µs that MPI_Reduce_local sums (floats), median of 5.
double reduce_bytes_per_us() {
  constexpr int kCount = 1 << 20;
  std::vector<float> in(kCount, 1.0f), inout(kCount, 2.0f);
  std::vector<double> t;
  for (int i = 0; i < 6; ++i) {
    const double t0 = MPI_Wtime();
    MPI_Reduce_local(in.data(), inout.data(), kCount, MPI_FLOAT, MPI_SUM);
    if (i > 0) t.push_back((MPI_Wtime() - t0) * 1e6);
  }
  std::sort(t.begin(), t.end());
  return kCount * 4.0 / std::max(1e-3, t[t.size() / 2]);
}

}  // namespace

hiercoll::MachineFigures measure_machine(MPI_Comm ctrl, const hcbench::Machine& m) {
  const hcbench::Links links = hcbench::measure_links(ctrl, m);
  int rank = 0;
  PMPI_Comm_rank(ctrl, &rank);
  // Rank 0 holds the link figures; bytes per µs are 10^-3 GB/s.
  double v[5] = {links.inter.alpha_us, links.inter.beta_bytes_per_us * 1e-3, links.intra.alpha_us,
                 links.intra.beta_bytes_per_us * 1e-3, rank == 0 ? reduce_bytes_per_us() * 1e-3 : 0};
  PMPI_Bcast(v, 5, MPI_DOUBLE, 0, ctrl);
  hiercoll::MachineFigures f;
  const hiercoll::MachineFigures& builtin = hiercoll::builtin_machine();
  // A layout without a second node (or rank) has no such link: keep the
  // built-in figure and say so.
  const bool inter = v[1] > 0, intra = v[3] > 0;
  f.inter_latency_us = inter ? v[0] : builtin.inter_latency_us;
  f.inter_bandwidth_gbps = inter ? v[1] : builtin.inter_bandwidth_gbps;
  f.intra_latency_us = intra ? v[2] : builtin.intra_latency_us;
  f.intra_bandwidth_gbps = intra ? v[3] : builtin.intra_bandwidth_gbps;
  f.reduce_gbps = v[4] > 0 ? v[4] : builtin.reduce_gbps;
  f.source = std::string("measured by hiercoll tune: ping-pong rank 0 to the next node's first rank and to a rank of ") +
             "its own node (8 B and 4 MiB, medians), MPI_Reduce_local of 4 MiB of floats" +
             (inter ? "" : "; no second node: inter-node figures built in") +
             (intra ? "" : "; one rank per node: intra-node figures built in");
  return f;
}

}  // namespace hctune
