#include "decide/growth_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hiercoll {

namespace {

constexpr int kTerms = 5;
const char* const kTermText[kTerms] = {"", " lg n", " (n-1)", " (1-1/n)", " n lg n"};

double term(int k, double n) {
  switch (k) {
    case 0: return 1;
    case 1: return std::log2(n);
    case 2: return n - 1;
    case 3: return 1 - 1 / n;
    default: return n * std::log2(n);
  }
}

// Least squares of the samples on the terms of `mask`, relative to each
// sample's time (so small and large layouts weigh alike); false when the
// system is singular.
bool least_squares(const std::vector<GrowthSample>& s, unsigned mask, double coef[kTerms]) {
  int idx[kTerms], m = 0;
  for (int k = 0; k < kTerms; ++k)
    if (mask & (1u << k)) idx[m++] = k;
  double a[kTerms][kTerms + 1] = {};
  for (const GrowthSample& x : s) {
    double row[kTerms];
    for (int j = 0; j < m; ++j) row[j] = term(idx[j], x.nodes) / x.us;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) a[i][j] += row[i] * row[j];
      a[i][m] += row[i];  // the sample's own time over itself
    }
  }
  for (int c = 0; c < m; ++c) {  // Gauss-Jordan with partial pivoting
    int piv = c;
    for (int r = c + 1; r < m; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[piv][c])) piv = r;
    if (std::fabs(a[piv][c]) < 1e-12 * (1 + std::fabs(a[c][c]))) return false;
    std::swap(a[c], a[piv]);
    for (int r = 0; r < m; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (int j = c; j <= m; ++j) a[r][j] -= f * a[c][j];
    }
  }
  for (int k = 0; k < kTerms; ++k) coef[k] = 0;
  for (int j = 0; j < m; ++j) coef[idx[j]] = a[j][m] / a[j][j];
  return true;
}

double value(const double coef[kTerms], double n) {
  double t = 0;
  for (int k = 0; k < kTerms; ++k) t += coef[k] * term(k, n);
  return t;
}

std::string form_text(const double coef[kTerms]) {
  std::string t;
  for (int k = 0; k < kTerms; ++k) {
    if (coef[k] <= 0) continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%.3g%s", t.empty() ? "" : " + ", coef[k], kTermText[k]);
    t += buf;
  }
  return t.empty() ? "0" : t;
}

// How well the terms of `mask` carry the growth outwards: fitted to the
// samples before each of the last two, the relative error of predicting
// it, averaged.  Infinite where a fit is singular or has a negative
// coefficient.
double extrapolation_error(const std::vector<GrowthSample>& s, unsigned mask) {
  double sum = 0;
  int tries = 0;
  for (size_t m = s.size() - 1; m + 2 >= s.size() && m >= 2; --m) {
    const std::vector<GrowthSample> before(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(m));
    double coef[kTerms];
    if (!least_squares(before, mask, coef)) return INFINITY;
    if (std::any_of(coef, coef + kTerms, [](double c) { return c < 0; })) return INFINITY;
    sum += std::fabs(value(coef, s[m].nodes) - s[m].us) / s[m].us;
    ++tries;
  }
  return sum / tries;
}

}  // namespace

bool fit_growth(const std::vector<GrowthSample>& samples, double nodes, GrowthFit* out) {
  std::vector<GrowthSample> s = samples;
  std::sort(s.begin(), s.end(), [](const GrowthSample& a, const GrowthSample& b) { return a.nodes < b.nodes; });
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i].nodes >= nodes || s[i].us <= 0 || (i > 0 && s[i].nodes == s[i - 1].nodes)) return false;
  if (s.size() < 3) return false;
  // At most as many terms as the samples a check fits to.
  const int most = std::min<int>(kTerms, static_cast<int>(s.size()) - 1);
  double coef[kTerms] = {}, fitted[kTerms];
  double chosen_error = INFINITY;
  bool any = false;
  for (int terms = 1; terms <= most; ++terms)
    for (unsigned mask = 1; mask < (1u << kTerms); ++mask) {
      if (__builtin_popcount(mask) != terms || !least_squares(s, mask, fitted)) continue;
      if (std::any_of(fitted, fitted + kTerms, [](double c) { return c < 0; })) continue;
      const double e = extrapolation_error(s, mask);
      if (!any || e < chosen_error - 1e-9) {  // a tie keeps the fewer terms
        any = true;
        chosen_error = e;
        std::copy(fitted, fitted + kTerms, coef);
      }
    }
  out->us = std::max(s.back().us, value(coef, nodes));
  out->form = form_text(coef);
  return true;
}

}  // namespace hiercoll
