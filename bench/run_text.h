// Small texts of a benchmark run's console and summary.txt.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hcbench {

// The local time in strftime's `fmt`.
std::string timestamp(const char* fmt);
// The machine's 1-minute load average ("?" when unknown).
std::string load_average();
std::string join(const std::vector<std::string>& v, const char* sep);
// "8,1K,64K".
std::string sizes_text(const std::vector<int64_t>& sizes);

}  // namespace hcbench
