// The machine figures that selection needs (segment sizes follow from the
// inter-node link's latency and bandwidth): measured by `hiercoll tune` and
// kept in the tuning file, or the built-in defaults, which say where they
// come from.
#pragma once

#include <cstdint>
#include <string>

namespace hiercoll {

struct MachineFigures {
  double inter_latency_us = 0;       // one small message between nodes
  double inter_bandwidth_gbps = 0;   // 10^9 bytes per second between nodes
  double intra_latency_us = 0;       // inside a node
  double intra_bandwidth_gbps = 0;
  double reduce_gbps = 0;            // MPI_Reduce_local, bytes of input per second
  std::string source;                // where the figures come from

  // The message size whose transfer time equals the latency (alpha / beta):
  // pipelines' segment sizes scale with its square root.
  int64_t alpha_over_beta_bytes() const;
};

// m with the node's own latency and bandwidth in the link's place: the
// figures the flat rules judge a phase inside a node by.
MachineFigures inside_node(const MachineFigures& m);

// Figures measured by the benchmark's ping-pong on the emulated cluster
// (4 nodes x 2 ranks on 2 cores, Open MPI 4.1.4 TCP over loopback): used
// where no tuning file gives the machine's own.
const MachineFigures& builtin_machine();

}  // namespace hiercoll
