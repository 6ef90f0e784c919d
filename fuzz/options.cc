#include "fuzz/options.h"

#include <climits>
#include <vector>

#include "cli/args.h"

namespace hiercoll {
namespace fuzz {

namespace {

using hccli::Args;

// A number of cases, a case's index or a seed: a whole number >= 0.
template <typename T>
bool at_least_zero(Args& a, T* out) {
  long long n;
  if (!a.whole(0, LLONG_MAX, &n)) return false;
  *out = static_cast<T>(n);
  return true;
}

const std::vector<hccli::OptionRow<FuzzOptions>>& fuzz_rows() {
  using R = hccli::OptionRow<FuzzOptions>;
  static const std::vector<R> rows = {
      {"--cases", false, [](Args& a, FuzzOptions& o) { return at_least_zero(a, &o.cases); }},
      {"--seed", false, [](Args& a, FuzzOptions& o) { return at_least_zero(a, &o.seed); }},
      {"--first", false, [](Args& a, FuzzOptions& o) { return at_least_zero(a, &o.first); }},
      // One case, described.
      {"--replay", false,
       [](Args& a, FuzzOptions& o) {
         o.cases = 1;
         o.verbose = true;
         return at_least_zero(a, &o.first);
       }},
      {"--verbose", true, [](Args&, FuzzOptions& o) { return hccli::set(&o.verbose, true); }},
      {"-h|--help", true, [](Args&, FuzzOptions& o) { return hccli::set(&o.help, true); }},
  };
  return rows;
}

}  // namespace

bool parse_fuzz_options(int argc, char** argv, FuzzOptions* o, std::string* error) {
  return hccli::read_args(argc, argv, fuzz_rows(), o, error);
}

std::string fuzz_usage() {
  return "usage: hiercoll_fuzz [--cases N] [--seed S] [--first I] [--replay I] [--verbose]\n"
         "  --cases N    cases to run (default 1000), from --first I (default 0)\n"
         "  --seed S     the seed the cases are drawn from (default 1)\n"
         "  --replay I   case I alone, described (--first I --cases 1 --verbose)\n"
         "  --verbose    describe every case before it runs\n";
}

}  // namespace fuzz
}  // namespace hiercoll
