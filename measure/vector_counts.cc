#include "measure/vector_counts.h"

#include <cstdlib>

namespace hcbench {

std::string CountsPattern::name() const {
  switch (kind) {
    case kUniform: return "uniform";
    case kHeavy: return "heavy";
    default: return "random:" + std::to_string(seed);
  }
}

bool parse_counts(const std::string& text, CountsPattern* out, std::string* error) {
  CountsPattern p;
  if (text == "uniform") {
    p.kind = CountsPattern::kUniform;
  } else if (text == "heavy") {
    p.kind = CountsPattern::kHeavy;
  } else if (text.rfind("random", 0) == 0) {
    p.kind = CountsPattern::kRandom;
    if (text.size() > 6) {
      char* end = nullptr;
      const unsigned long seed = text[6] == ':' ? std::strtoul(text.c_str() + 7, &end, 10) : 0;
      if (text[6] != ':' || end == text.c_str() + 7 || *end != '\0') {
        *error = "--counts: '" + text + "' is not uniform, heavy, random or random:<seed>";
        return false;
      }
      p.seed = static_cast<uint32_t>(seed);
    }
  } else {
    *error = "--counts: '" + text + "' is not uniform, heavy, random or random:<seed>";
    return false;
  }
  *out = p;
  return true;
}

namespace {

// A well-mixed 32-bit hash (the murmur3 finaliser) of the block's identity.
uint32_t mix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

}  // namespace

int64_t block_bytes(const CountsPattern& p, int64_t mean, int ranks, int src, int dst) {
  switch (p.kind) {
    case CountsPattern::kUniform:
      return mean;
    case CountsPattern::kHeavy: {
      // Rank 0 holds half of the p x mean bytes; the others share the rest.
      if (ranks == 1) return mean;
      const int64_t heavy = mean * ranks / 2;
      return src == 0 ? heavy : (mean * ranks - heavy) / (ranks - 1);
    }
    default: {
      const uint32_t h = mix(p.seed * 0x9e3779b9u ^ mix(uint32_t(src) * 65599u + uint32_t(dst)));
      return static_cast<int64_t>(h % 1024) * 2 * mean / 1023;
    }
  }
}

}  // namespace hcbench
