#include "bench/log.h"

#include <cstdarg>
#include <cstdio>
#include <vector>

namespace hcbench {

void Log::say(const char* fmt, ...) {
  if (!active_) return;
  va_list ap;
  va_start(ap, fmt);
  va_list copy;
  va_copy(copy, ap);
  const int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::vector<char> buf(static_cast<size_t>(n > 0 ? n : 0) + 1);
  std::vsnprintf(buf.data(), buf.size(), fmt, ap);
  va_end(ap);
  text(std::string(buf.data()) + "\n");
}

void Log::text(const std::string& s) {
  if (!active_) return;
  std::fputs(s.c_str(), stdout);
  std::fflush(stdout);
  kept_ += s;
}

}  // namespace hcbench
