// The tuning file: what `hiercoll tune` found on a machine, and what the
// runtime then selects.  JSON (nlohmann-json, Debian's nlohmann-json3-dev),
// human-readable and versioned:
//
//   { "format": "hiercoll-tuning", "version": 1,
//     "entries": [ {
//       "layout":  { "nodes": 4, "ranks_per_node": [2, 2, 2, 2], "placement": "slot" },
//       "machine": { "inter_latency_us": 17.0, "inter_bandwidth_gbps": 1.9, "intra_latency_us": 0.4,
//                    "intra_bandwidth_gbps": 4.1, "reduce_gbps": 2.2, "source": "measured by ..." },
//       "created": "...", "tool": "hiercoll tune ...", "hiercoll_version": "1.0.0",
//       "model": { "alpha_us": 50.4, ... } (optional: select/model_figures_json.h),
//       "ops": { "allreduce": [ { "from_bytes": 0, "to_bytes": 2048, "method": "hier:allreduce",
//                                 "segment_bytes": 0, "predicted_us": 41.0, "measured": true }, ... ] } } ] }
//
// One entry per layout.  A layout is the ranks of each node in node order
// (nodes ordered by their lowest rank) and the placement: "slot" (each
// node's ranks consecutive), "node" (round-robin over the nodes, skipping
// full ones, as mpirun --map-by node) or "list" (then "node_of" gives every
// rank's node).  Ranges are [from_bytes, to_bytes) of the call's size as the
// benchmark counts it (tuning_bytes below); to_bytes -1 means no limit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schedule/coll_args.h"
#include "select/machine.h"
#include "select/method.h"
#include "sim/cost_model.h"
#include "topo/topology.h"

namespace hiercoll {

struct LayoutKey {
  std::vector<int> ranks_per_node;
  std::string placement;     // "slot", "node" or "list"
  std::vector<int> node_of;  // "list" only

  bool operator==(const LayoutKey& o) const;
  int ranks() const;
};

LayoutKey layout_key(const Layout& L);
// "4x2 slot", "3,1,2 node".
std::string layout_text(const LayoutKey& k);
// The node of every rank under key k (for "list": node_of).
std::vector<int> nodes_of(const LayoutKey& k);

struct TunedRange {
  int64_t from_bytes = 0;
  int64_t to_bytes = -1;  // exclusive; -1: no limit
  Method method;
  int64_t segment_bytes = 0;  // 0: the rules decide
  double predicted_us = 0;    // the tuner's time for the method at the range's measured or interpolated size
  bool measured = false;      // false: interpolated between measured sizes
  bool contains(int64_t bytes) const { return bytes >= from_bytes && (to_bytes < 0 || bytes < to_bytes); }
};

struct TuningEntry {
  LayoutKey layout;
  MachineFigures machine;
  std::string created;  // when and by what it was tuned (free text)
  std::string tool;
  std::string hiercoll_version;  // of the tuner ("hiercoll_version"; optional)
  std::vector<TunedRange> ranges[kNumOps];  // sorted, non-overlapping
  // The cost model's figures for this machine ("model", optional;
  // select/model_figures_json.h): where an entry carries them, the runtime
  // decides from them (runtime/tuning.h tuning_figures), on this layout and
  // on every layout of the file that carries none.
  bool has_model = false;
  CostModel model;
  std::string model_source;
};

struct TuningFile {
  int version = 1;
  std::vector<TuningEntry> entries;
};

// The size a call is looked up by: a vector's bytes (bcast, reduce,
// allreduce, scan, exscan), one rank's block (allgather, gather, scatter,
// alltoall, reduce_scatter and allgatherv: the mean block), 0 for barrier
// and for gatherv, scatterv and alltoallv (see select/flat_rules.h).
int64_t tuning_bytes(Op op, int64_t unit_bytes, const CollArgs& args);
// The mean block of a call with a count per rank (args.counts), in bytes.
int64_t mean_block_bytes(int64_t unit_bytes, const CollArgs& args);

// Reads and checks the file's structure and values (not whether the named
// algorithms exist: the runtime checks those against its registries).  On
// failure *error is one line: "<path>: <what is wrong, with the key>".
bool load_tuning_file(const std::string& path, TuningFile* out, std::string* error);
bool parse_tuning_text(const std::string& text, const std::string& path, TuningFile* out, std::string* error);
std::string tuning_to_text(const TuningFile& f);
bool save_tuning_file(const std::string& path, const TuningFile& f, std::string* error);

const TuningEntry* find_entry(const TuningFile& f, const LayoutKey& k);
// Adds e, replacing the entry of the same layout.
void put_entry(TuningFile* f, const TuningEntry& e);
// The entry whose model figures layout k decides by: k's own entry where it
// carries figures, else the file's first entry that does; null: none.
const TuningEntry* figures_entry(const TuningFile& f, const LayoutKey& k);
// Where entry e's figures come from, for messages and the decisions' key:
// "<path> (entry 4x2 slot): <its source>".
std::string figures_source(const std::string& path, const TuningEntry& e);
// The range holding bytes, or null.
const TunedRange* find_range(const TuningEntry& e, Op op, int64_t bytes);

}  // namespace hiercoll
