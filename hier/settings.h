// Knobs: the mode (hier, flat, off), a forced algorithm per operation, the
// segment size and the socket level, from the environment and, per
// communicator, from MPI_Info hints that override the environment.
//
//   environment                    info key                 values
//   HIERCOLL_MODE                  hiercoll                 hier | flat | off
//   HIERCOLL_<OP>_ALGORITHM        hiercoll_<op>_algorithm  a registered name
//   HIERCOLL_SEGMENT_BYTES         hiercoll_segment_bytes   bytes (0 = default)
//   HIERCOLL_SOCKET_LEVEL          (environment only)       package | numa | none
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "flat/coll_args.h"

namespace hiercoll {

enum class Mode : uint8_t { kHier, kFlat, kOff };
const char* mode_name(Mode m);

struct Settings {
  Mode mode = Mode::kHier;
  std::string algorithm[kNumOps];  // empty: selection decides
  int64_t segment_bytes = 0;       // 0: selection decides
  bool verbose = false;            // HIERCOLL_VERBOSE=1: say when a call leaves the chosen path
  std::string error;               // non-empty: a knob was invalid (the call fails with MPI_ERR_ARG)
};

// From the environment, parsed once.
const Settings& env_settings();
// `base` overridden by the hints in `info` (MPI_INFO_NULL: base).
Settings apply_info(const Settings& base, MPI_Info info);

}  // namespace hiercoll
