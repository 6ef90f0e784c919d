// Nelder-Mead's downhill simplex (Nelder and Mead 1965, with the standard
// coefficients: reflection 1, expansion 2, contraction 1/2, shrink 1/2):
// minimises a function of a few variables without derivatives, which the
// calibration needs (a simulated time is piecewise linear in the model's
// figures, with kinks where the critical path changes).
#pragma once

#include <functional>
#include <vector>

namespace hiercoll {

struct MinimizeOptions {
  double step = 1.0;        // the initial simplex: start + step along each axis
  int max_evaluations = 2000;
  double tolerance = 1e-9;  // stop when the simplex's values differ by less
  int restarts = 2;         // restart from the best point (a collapsed simplex can stall)
};

struct MinimizeResult {
  std::vector<double> x;
  double value = 0;
  int evaluations = 0;
};

MinimizeResult minimize(const std::function<double(const std::vector<double>&)>& f, std::vector<double> start,
                        const MinimizeOptions& opt = MinimizeOptions{});

}  // namespace hiercoll
