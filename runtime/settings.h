// Knobs: the mode (hier, flat, off), a forced algorithm per operation, a
// forced hierarchical composition and inter-node algorithm per operation,
// the segment size and the socket level, from the environment and, per
// communicator, from MPI_Info hints that override the environment.
//
//   environment                      info key                       values
//   HIERCOLL_MODE                    hiercoll                       hier | flat | off
//   HIERCOLL_<OP>_ALGORITHM          hiercoll_<op>_algorithm        a flat algorithm of OP
//   HIERCOLL_<OP>_COMPOSITION        hiercoll_<op>_composition      a composition of OP
//   HIERCOLL_<OP>_INTER_ALGORITHM    hiercoll_<op>_inter_algorithm  a flat algorithm of an
//                                                                   inter-node phase of OP
//   HIERCOLL_SEGMENT_BYTES           hiercoll_segment_bytes         bytes (0 = default)
//   HIERCOLL_TUNING_FILE             hiercoll_tuning_file           a tuning file (`hiercoll tune`);
//                                                                   none: the built-in rules
//   HIERCOLL_SOCKET_LEVEL            (environment only)             package | numa | none
//   HIERCOLL_DYNAMIC                 hiercoll_dynamic               off | depth | breadth
//   HIERCOLL_DYNAMIC_LEADERS         hiercoll_dynamic_leaders       first | fixed
//   HIERCOLL_HWLOC_SYNTHETIC         (environment only)             an hwloc synthetic topology
//   HIERCOLL_ONLINE_TUNING           hiercoll_online_tuning         0 | 1: the first calls of a size
//                                                                   class try the model's best few
//                                                                   methods (runtime/online_tuning.h)
//   HIERCOLL_FIGURES                 (environment only)             builtin | probe | a figures file:
//                                                                   the model's figures (runtime/figures_probe.h)
//   HIERCOLL_PROFILE                 (environment only)             a file (runtime/profile.h)
//   HIERCOLL_STATS, HIERCOLL_VERBOSE (environment only)             0 | 1
//   HIERCOLL_PROGRESS_THREAD         (environment only)             0 | 1: a progress thread for
//                                                                   nonblocking collectives
//
// dynamic: rooted collectives (bcast, gather, scatter, reduce with a
// commutative operation) take their tree from the order processes enter
// the call (arrival/arrival_order.h), filling it depth or breadth first: in
// mode hier on several nodes as the leaders' and the nodes' binomial
// trees (runtime/hier_arrival.cc), otherwise on the flat algorithm the
// selection (or a knob) picks; off (the default) keeps the static trees.
// Blocking calls only (nonblocking ones keep the static trees).
// dynamic_leaders (with dynamic, mode hier): first (the default): in a
// bcast a node's first arrival leads it; fixed: its first rank does.
//
// <op>_algorithm runs that flat algorithm on the whole communicator, in
// mode hier too, and wins over the other two.  <op>_composition and
// <op>_inter_algorithm matter in mode hier only: the composition where it
// applies (hier_registry.h), the algorithm among the node leaders where
// the composition has an inter-node phase it fits.  Any of the three that
// does not fit a call falls back to the selection, counted
// (count_fallback) and told with HIERCOLL_VERBOSE=1.  An empty value is as
// if the knob were not set (its default).  Every knob refuses a bad value the same
// way: Settings::error says "KEY=value: why (known: ...)", and every call on
// the communicator fails with MPI_ERR_ARG printing it.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arrival/arrival_order.h"
#include "schedule/coll_args.h"

namespace hiercoll {

enum class Mode : uint8_t { kHier, kFlat, kOff };
const char* mode_name(Mode m);

struct Settings {
  Mode mode = Mode::kHier;
  std::string algorithm[kNumOps];        // empty: selection decides
  std::string composition[kNumOps];      // empty: the composition rules decide
  std::string inter_algorithm[kNumOps];  // empty: the phase rules decide
  int64_t segment_bytes = 0;       // 0: selection decides
  bool dynamic = false;            // arrival-order trees for rooted collectives
  FillOrder dynamic_fill = FillOrder::kDepthFirst;
  bool dynamic_leaders = true;     // a node's first arrival leads it (hier bcast in arrival order)
  std::string tuning_file;         // "": the built-in rules (runtime/tuning.h)
  std::string figures;             // HIERCOLL_FIGURES: "" (built-in), "probe" or a file
  bool online_tuning = false;      // HIERCOLL_ONLINE_TUNING=1 (runtime/online_tuning.h)
  bool verbose = false;            // HIERCOLL_VERBOSE=1: say when a call leaves the chosen path
  bool progress_thread = false;    // HIERCOLL_PROGRESS_THREAD=1 (runtime/progress_thread.h)
  bool stats = false;              // HIERCOLL_STATS=1: runtime/stats.h
  std::string profile_file;        // HIERCOLL_PROFILE: runtime/profile.h
  std::string error;               // non-empty: a knob was invalid (the call fails with MPI_ERR_ARG)
};

// Every knob: its environment variable and info key ("": environment only).
struct KnobName {
  std::string env, info;
};
std::vector<KnobName> knob_names();

// From the environment, parsed once.
const Settings& env_settings();
// From an environment given as a lookup (env_settings passes getenv).
Settings settings_from_env(const std::function<const char*(const char*)>& getenv);
// `base` overridden by the hints in `info` (MPI_INFO_NULL: base).
Settings apply_info(const Settings& base, MPI_Info info);

}  // namespace hiercoll
