// Rank 0's console output, kept as well for summary.txt.
#pragma once

#include <string>

namespace hcbench {

class Log {
 public:
  explicit Log(bool active) : active_(active) {}
  // printf-style; prints (and keeps) on the active rank only, flushed at once.
  void say(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
  // A block of text as is.
  void text(const std::string& s);
  const std::string& kept() const { return kept_; }
  bool active() const { return active_; }

 private:
  bool active_;
  std::string kept_;
};

}  // namespace hcbench
