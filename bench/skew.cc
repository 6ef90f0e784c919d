#include "bench/skew.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <sstream>

namespace hcbench {

namespace {

bool to_number(const std::string& s, double* v) {
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return !s.empty() && *end == '\0' && *v >= 0;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string item;
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

}  // namespace

std::string parse_skew(const std::string& spec, Skew* skew) {
  Skew s;
  const std::string bad = "--skew " + spec + ": expected RANK@US,... or random:K:MAX_US:SEED";
  if (spec.rfind("random:", 0) == 0) {
    const std::vector<std::string> f = split(spec.substr(7), ':');
    double k = 0, max_us = 0, seed = 0;
    if (f.size() != 3 || !to_number(f[0], &k) || !to_number(f[1], &max_us) || !to_number(f[2], &seed) || k < 1 ||
        k != static_cast<int>(k))
      return bad;
    s.random_ranks = static_cast<int>(k);
    s.random_max_us = max_us;
    s.seed = static_cast<uint64_t>(seed);
  } else {
    for (const std::string& item : split(spec, ',')) {
      const size_t at = item.find('@');
      double rank = 0, us = 0;
      if (at == std::string::npos || !to_number(item.substr(0, at), &rank) || !to_number(item.substr(at + 1), &us) ||
          rank != static_cast<int>(rank))
        return bad;
      s.fixed.emplace_back(static_cast<int>(rank), us);
    }
    if (s.fixed.empty()) return bad;
  }
  s.text = spec;
  *skew = s;
  return "";
}

std::vector<double> Skew::delays(int rep, int size) const {
  std::vector<double> d(size, 0);
  for (const auto& [rank, us] : fixed)
    if (rank < size) d[rank] = us;
  if (random_ranks > 0) {
    std::mt19937_64 rng(seed * 1000003 + static_cast<uint64_t>(rep));
    std::vector<int> ranks(size);
    std::iota(ranks.begin(), ranks.end(), 0);
    std::shuffle(ranks.begin(), ranks.end(), rng);
    std::uniform_real_distribution<double> us(0, random_max_us);
    for (int i = 0; i < std::min(random_ranks, size); ++i) d[ranks[i]] = us(rng);
  }
  return d;
}

}  // namespace hcbench
