#include "sim/nelder_mead.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hiercoll {

namespace {

struct Vertex {
  std::vector<double> x;
  double f;
};

// x0 + t (x1 - x0)
std::vector<double> along(const std::vector<double>& x0, const std::vector<double>& x1, double t) {
  std::vector<double> y(x0.size());
  for (size_t i = 0; i < y.size(); ++i) y[i] = x0[i] + t * (x1[i] - x0[i]);
  return y;
}

}  // namespace

MinimizeResult minimize(const std::function<double(const std::vector<double>&)>& f, std::vector<double> start,
                        const MinimizeOptions& opt) {
  const size_t n = start.size();
  int evaluations = 0;
  auto eval = [&](std::vector<double> x) {
    ++evaluations;
    const double v = f(x);
    return Vertex{std::move(x), std::isnan(v) ? INFINITY : v};
  };
  Vertex best = eval(start);
  for (int round = 0; round <= opt.restarts && evaluations < opt.max_evaluations; ++round) {
    std::vector<Vertex> s = {best};
    for (size_t i = 0; i < n; ++i) {
      std::vector<double> x = best.x;
      x[i] += opt.step;
      s.push_back(eval(x));
    }
    auto by_value = [](const Vertex& a, const Vertex& b) { return a.f < b.f; };
    while (evaluations < opt.max_evaluations) {
      std::sort(s.begin(), s.end(), by_value);
      if (s.back().f - s.front().f <= opt.tolerance * (1 + std::fabs(s.front().f))) break;
      std::vector<double> centroid(n, 0.0);
      for (size_t k = 0; k < n; ++k)
        for (size_t i = 0; i < n; ++i) centroid[i] += s[k].x[i] / static_cast<double>(n);
      Vertex& worst = s.back();
      const Vertex reflected = eval(along(centroid, worst.x, -1.0));
      if (reflected.f < s.front().f) {
        const Vertex expanded = eval(along(centroid, worst.x, -2.0));
        worst = expanded.f < reflected.f ? expanded : reflected;
      } else if (reflected.f < s[n - 1].f) {
        worst = reflected;
      } else {
        // Contract towards the better of the worst and its reflection.
        const bool outside = reflected.f < worst.f;
        const Vertex contracted = eval(along(centroid, outside ? reflected.x : worst.x, 0.5));
        if (contracted.f < std::min(worst.f, reflected.f)) {
          worst = contracted;
        } else {  // shrink towards the best
          for (size_t k = 1; k <= n; ++k) s[k] = eval(along(s[0].x, s[k].x, 0.5));
        }
      }
    }
    const Vertex& round_best = *std::min_element(s.begin(), s.end(), by_value);
    if (round_best.f < best.f) best = round_best;
  }
  return MinimizeResult{best.x, best.f, evaluations};
}

}  // namespace hiercoll
