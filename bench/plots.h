// gnuplot input: data files and scripts that draw, per operation,
//   <op>.png           time vs size, one line per implementation (median;
//                      for rooted operations the median over roots), and the
//                      lower bound where one is defined;
//   <op>_roots.png     rooted operations: median over roots with whiskers
//                      from the best to the worst root (SKaMPI style);
//   <op>_per_root.png  rooted operations: each root's median, one panel per
//                      size, so the roots that hurt are visible.
// The scripts use the pngcairo terminal and only relative file names: run
// `gnuplot <op>.gp` inside the folder.
#pragma once

#include <string>
#include <vector>

#include "bench/gnuplot.h"
#include "measure/results.h"

namespace hcbench {

struct PlotInput {
  const Results* results = nullptr;
  std::vector<std::string> ops;    // in order
  std::vector<bool> rooted;        // per op
  std::vector<std::string> impls;  // in order
  std::string context;             // subtitle: layout and cores
  Links links;
  int nodes = 1;
};

// The .dat and .gp files (scripts are named <name>.gp).
std::vector<TextFile> plot_files(const PlotInput& in);

}  // namespace hcbench
