#include "measure/sizes.h"

#include <algorithm>
#include <cctype>

#include "cli/args.h"

namespace hcbench {

using hccli::split_list;

bool parse_size(const std::string& text, int64_t* bytes) {
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 12) return false;
  int64_t n = std::stoll(text.substr(0, i));
  std::string unit = text.substr(i);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit == "B") unit.clear();
  if (unit.size() == 3 && unit.substr(1) == "IB") unit = unit.substr(0, 1);
  if (unit.size() == 2 && unit[1] == 'B') unit = unit.substr(0, 1);
  int shift = 0;
  if (unit.empty()) shift = 0;
  else if (unit == "K") shift = 10;
  else if (unit == "M") shift = 20;
  else if (unit == "G") shift = 30;
  else return false;
  if (n > (int64_t{1} << (40 - shift))) return false;  // at most 1 TiB
  *bytes = n << shift;
  return true;
}

std::string format_size(int64_t bytes) {
  static const char* const units[] = {"", "K", "M", "G"};
  int u = 0;
  while (u < 3 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + units[u];
}

bool parse_size_list(const std::string& text, std::vector<int64_t>* sizes, std::string* error) {
  std::vector<int64_t> out;
  for (const std::string& item : split_list(text, ',')) {
    const size_t dash = item.find('-');
    if (dash == std::string::npos) {
      int64_t b;
      if (!parse_size(item, &b)) {
        *error = "bad size '" + item + "' (examples: 8, 1K, 64K, 1M, 8-4M)";
        return false;
      }
      out.push_back(b);
      continue;
    }
    int64_t lo, hi;
    if (!parse_size(item.substr(0, dash), &lo) || !parse_size(item.substr(dash + 1), &hi) || lo <= 0 || hi < lo) {
      *error = "bad size range '" + item + "' (example: 8-4M doubles from 8 bytes to 4 MiB)";
      return false;
    }
    for (int64_t b = lo; b <= hi; b *= 2) out.push_back(b);
  }
  if (out.empty()) {
    *error = "no sizes given";
    return false;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  *sizes = out;
  return true;
}

}  // namespace hcbench
