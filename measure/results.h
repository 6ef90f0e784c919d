// What a run produced, kept on rank 0: the layout, the link figures and one
// Measurement per (operation, size, implementation, root).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "measure/stats.h"

namespace hcbench {

struct LayoutInfo {
  int ranks = 0;
  int nodes = 0;
  std::vector<int> ppn;     // ranks of each node, nodes in order of their lowest rank
  bool consecutive = true;  // every node's ranks are consecutive (by-slot placement)
  // "2" when every node has 2 ranks, else the list joined by '+': "3+1+2".
  std::string ppn_string() const;
  // "4x2" or "3+1+2" (file names, headers).
  std::string short_name() const;
};

struct Measurement {
  std::string op;
  int64_t bytes = 0;
  std::string impl;
  std::string algorithm;
  int root = -1;                 // -1: no root
  std::vector<double> samples;   // per-call times in µs, in the order measured
  bool wrong = false;            // the checked call gave a wrong result
  Summary summary() const { return summarize(samples); }
};

// One link of the machine, from ping-pong: one-way time = alpha + bytes / beta.
struct Link {
  bool measured = false;
  double alpha_us = 0;           // one-way latency of a small message
  double beta_bytes_per_us = 0;  // bandwidth (bytes per µs = MB/s)
  double one_way_us(double bytes) const { return alpha_us + bytes / beta_bytes_per_us; }
};

struct Links {
  Link intra;       // two ranks of one node
  Link inter;       // two ranks of different nodes, the rest of the job idle
  Link inter_busy;  // the same while every node sends to the next (a ring of
                    // node masters): what a link gives when all are busy
  Link node_out;    // every rank of rank 0's node sending at once to ranks of
                    // another node; beta is their sum: what the node's link
                    // carries, shared by its ranks
};

// The lower bound in µs for `op` moving `bytes` per rank on `nodes` nodes
// (bcast, reduce, allreduce; NaN for other operations or unmeasured links):
//   bcast, reduce:  alpha_inter + bytes / beta_inter
//   allreduce:      2 alpha_inter + 2 (nodes-1)/nodes * bytes / beta_inter
// beta_inter is what one node can send: the larger of one pair's beta and
// node_out's (all the node's ranks at once share the node's link, so
// together they get no more than it carries; on the emulated cluster
// without a link model they may get more than one pair).
// On one node the intra-node link stands in for the inter-node one.
// busy = true: the links as measured all busy at once (alpha stays the idle
// link's): allreduce, whose node phase is that same ring, takes the ring's
// beta; bcast and reduce keep nodes-1 links busy, not nodes, so they get
// min(beta, beta_ring * nodes / (nodes-1)).
double lower_bound_us(const std::string& op, int64_t bytes, int nodes, const Links& links, bool busy = false);

class Results {
 public:
  void add(Measurement m) { all_.push_back(std::move(m)); }
  void mark_wrong(const std::string& op, int64_t bytes, const std::string& impl);
  const std::vector<Measurement>& all() const { return all_; }
  // The per-root summaries of (op, bytes, impl), roots ascending.
  std::vector<RootSummary> per_root(const std::string& op, int64_t bytes, const std::string& impl) const;
  RootAggregate aggregate(const std::string& op, int64_t bytes, const std::string& impl) const;
  // The algorithm that ran ("a, b" when roots differ); "" when not measured.
  std::string algorithm(const std::string& op, int64_t bytes, const std::string& impl) const;
  bool wrong(const std::string& op, int64_t bytes, const std::string& impl) const;
  // Sizes measured for op, ascending.
  std::vector<int64_t> sizes(const std::string& op) const;

 private:
  std::vector<Measurement> all_;
};

}  // namespace hcbench
