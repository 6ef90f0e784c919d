#include "bench/run_text.h"

#include <ctime>
#include <fstream>

#include "measure/sizes.h"

namespace hcbench {

std::string timestamp(const char* fmt) {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, fmt, std::localtime(&t));
  return buf;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string first;
  return in >> first ? first : "?";
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::string sizes_text(const std::vector<int64_t>& sizes) {
  std::vector<std::string> s;
  for (int64_t b : sizes) s.push_back(format_size(b));
  return join(s, ",");
}

}  // namespace hcbench
