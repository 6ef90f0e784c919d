#include "select/log_interpolation.h"

#include <algorithm>
#include <cmath>

namespace hiercoll {
namespace {

double log_bytes(int64_t bytes) { return std::log(static_cast<double>(std::max<int64_t>(bytes, 1))); }

// Bytes at fraction t of the way from x0 to x1 in log scale, rounded up and
// kept inside [x0 + 1, x1].
int64_t at_fraction(int64_t x0, int64_t x1, double t) {
  const double lx = log_bytes(x0) + std::clamp(t, 0.0, 1.0) * (log_bytes(x1) - log_bytes(x0));
  const double b = std::ceil(std::exp(lx) - 1e-9 * std::exp(lx));
  if (!(b < static_cast<double>(x1))) return x1;
  return std::max(x0 + 1, static_cast<int64_t>(b));
}

}  // namespace

double interpolate_log_log(int64_t x0, double y0, int64_t x1, double y1, int64_t bytes) {
  const double span = log_bytes(x1) - log_bytes(x0);
  if (span <= 0) return y0;
  const double t = (log_bytes(bytes) - log_bytes(x0)) / span;
  return std::exp(std::log(y0) + t * (std::log(y1) - std::log(y0)));
}

int64_t crossing_bytes(int64_t x0, double a0, double b0, int64_t x1, double a1, double b1) {
  // d = log(A/B) is linear in log(bytes); B leads where d >= 0.
  const double d0 = std::log(a0 / b0), d1 = std::log(a1 / b1);
  if (d0 >= 0) return x0 + 1;
  if (d1 < 0) return x1;
  return at_fraction(x0, x1, d0 / (d0 - d1));
}

int64_t middle_bytes(int64_t x0, int64_t x1) { return at_fraction(x0, x1, 0.5); }

}  // namespace hiercoll
