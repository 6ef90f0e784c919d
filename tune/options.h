// The tuner's command line (fixed, scripts rely on it):
//   hiercoll_tune --ops LIST --sizes LIST [--budget MINUTES] [--exhaustive]
//                 [--profile FILE] --out FILE
//   hiercoll_tune --show FILE
// plus the search's knobs (--min-samples, --max-samples, --drop-ratio,
// --look-past, --scan-steps, --stride).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hctune {

struct TuneOptions {
  std::vector<std::string> ops = {"bcast", "reduce", "allreduce", "allgather", "alltoall", "scan", "barrier"};
  std::vector<int64_t> sizes;  // filled with kDefaultSizes when not given
  double budget_minutes = 0;   // 0: no limit
  bool exhaustive = false;
  bool guided = false;         // the model's first methods only (tune/guided.h)
  std::string profile;         // tune what a HIERCOLL_PROFILE run recorded
  std::string out;
  std::string show;            // print a tuning file's decisions and stop
  int min_samples = 3;
  int max_samples = 15;
  double drop_ratio = 0.5;
  int look_past = 2;
  int scan_steps = 2;
  int stride = 2;              // every stride-th size of the grid measured before refining
  double carry_ratio = 1.5;    // >0: methods this many times slower at the neighbouring measured size are skipped
  int between = 1;             // sizes inserted between neighbouring grid sizes (measured only where winners differ)
  int segment_window = 2;      // >0: segments walked within this many octaves of the neighbouring size's best
  bool help = false;
};

constexpr const char* kDefaultSizes = "8-4M";

bool parse_tune_options(int argc, char** argv, TuneOptions* opt, std::string* error);
std::string tune_usage();

}  // namespace hctune
