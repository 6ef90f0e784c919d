// Byte sizes as the tools spell them on the command line and in tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hcbench {

// "8", "1K", "64k", "1M", "4MiB", "1G": bytes (K = 1024). False on junk.
bool parse_size(const std::string& text, int64_t* bytes);
// "8", "1K", "64K", "1M", "3000": the shortest exact spelling.
std::string format_size(int64_t bytes);
// "8,1K,64K" or ranges "8-4M" (doubling) mixed: "8,64K-1M". Sorted, unique.
bool parse_size_list(const std::string& text, std::vector<int64_t>* sizes, std::string* error);

}  // namespace hcbench
