// The fuzzer's command line (the cluster options --nodes, --ppn,
// --ppn-list, --map-by belong to the launcher): which cases of which seed
// run, and whether each is described.
#pragma once

#include <cstdint>
#include <string>

namespace hiercoll {
namespace fuzz {

struct FuzzOptions {
  int64_t cases = 1000;  // cases first .. first+cases-1 run
  int64_t first = 0;
  uint64_t seed = 1;
  bool verbose = false;  // describe every case before it runs
  bool help = false;
};

// Reads argv[1..argc) through the fuzzer's rows of options (cli/args.h);
// false with *error naming the first unknown or refused argument.
bool parse_fuzz_options(int argc, char** argv, FuzzOptions* o, std::string* error);
std::string fuzz_usage();

}  // namespace fuzz
}  // namespace hiercoll
