#include "cli/args.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace hccli {

bool Args::next() {
  if (++i_ >= argc_) return false;
  raw_ = name_ = argv_[i_];
  value_.clear();
  inline_ = read_ = false;
  const size_t eq = name_.find('=');
  if (name_.rfind("--", 0) == 0 && eq != std::string::npos) {
    value_ = name_.substr(eq + 1);
    name_ = name_.substr(0, eq);
    inline_ = true;
  }
  return true;
}

bool Args::text(std::string* v) {
  if (!inline_ && !read_) {
    if (i_ + 1 >= argc_) {
      error_ = name_ + " needs a value";
      return false;
    }
    value_ = argv_[++i_];
  }
  read_ = true;
  *v = value_;
  return true;
}

bool Args::nonempty_text(std::string* v, const char* what) {
  if (!text(v)) return false;
  return !v->empty() || fail(std::string("empty ") + what);
}

bool Args::whole(long long lo, long long hi, long long* out) {
  std::string v;
  if (!text(&v)) return false;
  char* end = nullptr;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < lo || n > hi)
    return fail("expected a whole number " + (hi == LLONG_MAX ? ">= " + std::to_string(lo)
                                                                : "in " + std::to_string(lo) + ".." + std::to_string(hi)));
  *out = n;
  return true;
}

bool Args::whole(long long lo, long long hi, int* out) {
  long long n;
  if (!whole(lo, hi, &n)) return false;
  *out = static_cast<int>(n);
  return true;
}

bool Args::number(double lo, double hi, double* out, const char* expected) {
  std::string v;
  if (!text(&v)) return false;
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(d >= lo && d <= hi)) return fail(std::string("expected ") + expected);
  *out = d;
  return true;
}

bool Args::fail(const std::string& why) {
  error_ = name_ + (read_ ? " '" + value_ + "'" : std::string()) + ": " + why;
  return false;
}

bool names_match(const char* names, const std::string& name) {
  const char* p = names;
  while (*p) {
    const char* bar = std::strchr(p, '|');
    const size_t n = bar ? static_cast<size_t>(bar - p) : std::strlen(p);
    if (name.size() == n && name.compare(0, n, p, n) == 0) return true;
    if (!bar) break;
    p = bar + 1;
  }
  return false;
}

std::vector<std::string> split_list(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

}  // namespace hccli
