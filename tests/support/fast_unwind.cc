// Linked into the tests that never start MPI.  The sanitized pass
// (`./hiercoll test --sanitize`, tools/hiercoll_cmd/build.sh) unwinds the
// whole stack at every allocation (ASAN_OPTIONS fast_unwind_on_malloc=0):
// Open MPI has no frame pointers, and a leak it keeps must show its frames
// to match tools/sanitize/lsan.supp.  A process without MPI has no such
// leaks, and full unwinding slows an allocating test up to fifteen times
// (sim_table1_test: 94 s against 6 s), so such a test re-executes itself
// once, before main, with fast unwinding.  A leak of its own is still
// reported, with the frames that have frame pointers.
#if defined(__SANITIZE_ADDRESS__)

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr char kFast[] = "fast_unwind_on_malloc=1";

bool reexecute_with_fast_unwinding() {
  const char* options = std::getenv("ASAN_OPTIONS");
  const std::string now = options ? options : "";
  if (now.find("fast_unwind_on_malloc=0") == std::string::npos) return false;  // already fast
  const size_t at = now.rfind("fast_unwind_on_malloc=");
  if (now.compare(at, sizeof kFast - 1, kFast) == 0) return false;  // the last setting wins: done
  // The command line as it was given.
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  for (size_t i = 0; i < all.size(); i += args.back().size() + 1) args.emplace_back(all.c_str() + i);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string fast = now + ":" + kFast;
  setenv("ASAN_OPTIONS", fast.c_str(), 1);
  execv("/proc/self/exe", argv.data());
  return false;  // exec failed: go on with full unwinding
}

const bool reexecuted = reexecute_with_fast_unwinding();

}  // namespace

#endif
