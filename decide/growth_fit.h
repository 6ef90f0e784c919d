// How a candidate's time grows with the number of nodes, fitted to its
// simulated times on smaller layouts of the same kind and carried to the
// whole layout (decide/model_cost.h).  The collectives' alpha-beta-gamma
// forms (Thakur, Rabenseifner and Gropp; the two-tree paper) are, for p =
// n q ranks on n nodes of q, non-negative sums of five terms of n:
//   1          the work inside a node,
//   lg n       a tree's or recursive doubling's steps,
//   n - 1      a ring's or a linear algorithm's steps, a block per rank,
//   1 - 1/n    the (p-1)/p share of a message that halving or a ring moves,
//   n lg n     Bruck's alltoall: lg p rounds of p/2 blocks.
// The terms kept are those, with non-negative coefficients, that best
// predict each of the two largest samples from the samples before it: the
// fit is chosen for how well it carries the growth outwards, which is what
// it is for (a tie keeps the fewer terms).
#pragma once

#include <string>
#include <vector>

namespace hiercoll {

struct GrowthSample {
  double nodes = 0;
  double us = 0;
};

struct GrowthFit {
  double us = 0;     // the prediction at the target, at least the largest layout's time
  std::string form;  // "12.0 + 3.1 lg n + 0.25 (n-1)"
};

// Needs at least three samples of distinct node counts, all below
// `nodes`; false otherwise.
bool fit_growth(const std::vector<GrowthSample>& samples, double nodes, GrowthFit* out);

}  // namespace hiercoll
