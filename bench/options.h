// Command line of the benchmark binary (the cluster options --nodes, --ppn,
// --ppn-list, --map-by belong to the launcher, not to this binary).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bench/skew.h"
#include "measure/impl_spec.h"
#include "measure/vector_counts.h"

namespace hcbench {

struct Options {
  std::vector<std::string> ops = {"bcast", "reduce", "allreduce", "barrier", "scan", "allgather"};
  std::vector<int64_t> sizes = {8, 1024, 64 * 1024, 1024 * 1024, 4 * 1024 * 1024};
  std::vector<ImplSpec> impls;  // filled with hier,flat,native,han by parse_options
  int reps = 0;                 // 0: automatic (min_reps..max_reps within point_seconds)
  int min_reps = 5;
  int max_reps = 100;
  double point_seconds = 6.0;   // automatic reps: time per (operation, size), all roots and impls
  int warmup = 2;
  std::string roots = "auto";   // auto | all | sample | comma-separated ranks
  CountsPattern counts;         // v-variants' block sizes (--counts)
  std::string sync = "time";    // time (common start on a synchronized clock) | barrier
  std::string out;              // "" = results/<timestamp>-<layout>
  std::string tuning;           // --tuning FILE: the file the implementation `tuned` selects from
  bool plots = true;
  bool lower_bound = true;
  bool check = true;
  int64_t max_buffer = int64_t{1} << 30;  // skip points needing a larger buffer per rank
  Skew skew;                    // --skew: ranks that enter each timed call late
  bool overlap = false;         // --overlap: the nonblocking overlap study (bench/overlap.h)
  bool overlap_sleep = false;   // --overlap-work sleep: the "computation" sleeps (leaves the core free)
  bool persistent = false;      // --persistent: persistent vs blocking collectives (bench/persistent.h)
  bool help = false;
};

// Parses argv[1..argc); on error returns false with a message.
bool parse_options(int argc, char** argv, Options* opt, std::string* error);
std::string usage_text();

}  // namespace hcbench
