#include "bench/plots.h"

#include <cmath>
#include <sstream>

#include "bench/gnuplot.h"
#include "measure/sizes.h"

namespace hcbench {

namespace {

// <op>.dat: bytes, then per impl: median, best root, worst root; then the
// bound.  Whether any size has a bound.
bool time_data(const PlotInput& in, const std::string& op, const std::vector<int64_t>& sizes,
               std::vector<TextFile>* files) {
  const Results& r = *in.results;
  std::ostringstream dat;
  dat << "# bytes";
  for (const std::string& i : in.impls) dat << "  " << i << ":median " << i << ":best_root " << i << ":worst_root";
  dat << "  lower_bound busy_lower_bound\n";
  bool any_bound = false;
  for (int64_t b : sizes) {
    dat << b;
    for (const std::string& i : in.impls) {
      const RootAggregate a = r.aggregate(op, b, i);
      dat << " " << gp_number(a.median) << " " << gp_number(a.min) << " " << gp_number(a.max);
    }
    const double bound = lower_bound_us(op, b, in.nodes, in.links);
    any_bound = any_bound || !std::isnan(bound);
    dat << " " << gp_number(bound) << " " << gp_number(lower_bound_us(op, b, in.nodes, in.links, true)) << "\n";
  }
  files->push_back({op + ".dat", dat.str()});
  return any_bound;
}

// <op>.png: time vs size.
TextFile time_plot(const PlotInput& in, const std::string& op, const std::vector<int64_t>& sizes, bool rooted,
                   bool any_bound) {
  const bool sized = !(sizes.size() == 1 && sizes[0] == 0);
  const int bound_col = 2 + 3 * static_cast<int>(in.impls.size());
  std::ostringstream gp;
  gp << gp_header(op + ".png", 1000, 640);
  gp << "set title " << gp_quoted(gp_plain(op + (rooted ? " (median over roots)" : "") + " - " + in.context)) << "\n";
  gp << "set ylabel \"time per call (µs)\"\n";
  gp << "set logscale y\n";
  gp << gp_size_axis(sizes);
  if (!sized) gp << "set style data points\n";
  gp << "plot ";
  for (size_t i = 0; i < in.impls.size(); ++i) {
    const int col = 2 + 3 * static_cast<int>(i);
    gp << (i ? ", \\\n     " : "") << gp_quoted(op + ".dat") << " using 1:" << col << " with linespoints lw 2 pt "
       << (i % 10 + 4) << " title " << gp_quoted(gp_plain(in.impls[i]));
  }
  if (any_bound && sized)
    gp << ", \\\n     " << gp_quoted(op + ".dat") << " using 1:" << bound_col
       << " with lines dt 2 lw 2 lc rgb \"black\" title \"lower bound\", \\\n     " << gp_quoted(op + ".dat")
       << " using 1:" << bound_col + 1 << " with lines dt 3 lw 2 lc rgb \"gray40\" title \"bound, links busy\"";
  gp << "\n";
  return {op + ".gp", gp.str()};
}

// <op>_roots.png: median over roots, whiskers best..worst root.
TextFile roots_plot(const PlotInput& in, const std::string& op, const std::vector<int64_t>& sizes) {
  std::ostringstream rs;
  rs << gp_header(op + "_roots.png", 1000, 640);
  rs << "set title " << gp_quoted(gp_plain(op + ": per-root medians, median with best..worst root - " + in.context))
     << "\n";
  rs << "set ylabel \"time per call (µs)\"\nset logscale y\n" << gp_size_axis(sizes);
  rs << "set bars 2\nplot ";
  const double n = static_cast<double>(in.impls.size());
  for (size_t i = 0; i < in.impls.size(); ++i) {
    const int col = 2 + 3 * static_cast<int>(i);
    const double shift = std::pow(1.12, static_cast<double>(i) - (n - 1) / 2);  // spread impls apart
    rs << (i ? ", \\\n     " : "") << gp_quoted(op + ".dat") << " using ($1*" << gp_number(shift) << "):" << col << ":"
       << col + 1 << ":" << col + 2 << " with yerrorlines lw 2 pt " << (i % 10 + 4) << " title "
       << gp_quoted(gp_plain(in.impls[i]));
  }
  rs << "\n";
  return {op + "_roots.gp", rs.str()};
}

// <op>_per_root_<size>.dat: each root's median per implementation.
TextFile per_root_data(const PlotInput& in, const std::string& op, int64_t b, const std::vector<int>& roots) {
  std::ostringstream d;
  d << "# root";
  for (const std::string& i : in.impls) d << " " << i << ":median";
  d << "\n";
  for (int root : roots) {
    d << root;
    for (const std::string& i : in.impls) {
      double v = std::nan("");
      for (const RootSummary& s : in.results->per_root(op, b, i))
        if (s.root == root) v = s.reps.median;
      d << " " << gp_number(v);
    }
    d << "\n";
  }
  return {op + "_per_root_" + format_size(b) + ".dat", d.str()};
}

// <op>_per_root.png: one panel per size, x = root.
TextFile per_root_plot(const PlotInput& in, const std::string& op, const std::vector<int64_t>& sizes,
                       const std::vector<int>& roots) {
  std::ostringstream pr;
  const int panels = static_cast<int>(sizes.size());
  const int cols = panels <= 2 ? panels : (panels <= 4 ? 2 : 3);
  const int rows_n = (panels + cols - 1) / cols;
  pr << gp_header(op + "_per_root.png", 520 * cols, 380 * rows_n + 40);
  pr << "set multiplot layout " << rows_n << "," << cols << " title "
     << gp_quoted(gp_plain(op + ": median time per root - " + in.context)) << "\n";
  pr << "set xlabel \"root\"\nset ylabel \"µs\"\nset key outside right top\nset xtics 1\n";
  if (!roots.empty()) pr << "set xrange [" << roots.front() - 0.5 << ":" << roots.back() + 0.5 << "]\n";
  if (roots.size() > 24) pr << "set xtics autofreq\n";
  for (int64_t b : sizes) {
    pr << "set title " << gp_quoted(format_size(b) + " bytes") << "\n";
    pr << "plot ";
    for (size_t i = 0; i < in.impls.size(); ++i)
      pr << (i ? ", \\\n     " : "") << gp_quoted(op + "_per_root_" + format_size(b) + ".dat") << " using 1:" << i + 2
         << " with linespoints lw 2 pt " << (i % 10 + 4) << " title " << gp_quoted(gp_plain(in.impls[i]));
    pr << "\n";
  }
  pr << "unset multiplot\n";
  return {op + "_per_root.gp", pr.str()};
}

}  // namespace

std::vector<TextFile> plot_files(const PlotInput& in) {
  std::vector<TextFile> files;
  for (size_t k = 0; k < in.ops.size(); ++k) {
    const std::string& op = in.ops[k];
    const std::vector<int64_t> sizes = in.results->sizes(op);
    if (sizes.empty()) continue;
    const bool rooted = in.rooted[k];
    const bool any_bound = time_data(in, op, sizes, &files);
    files.push_back(time_plot(in, op, sizes, rooted, any_bound));
    if (!rooted) continue;
    files.push_back(roots_plot(in, op, sizes));
    std::vector<int> roots;
    for (const RootSummary& s : in.results->per_root(op, sizes.front(), in.impls.front())) roots.push_back(s.root);
    for (int64_t b : sizes) files.push_back(per_root_data(in, op, b, roots));
    files.push_back(per_root_plot(in, op, sizes, roots));
  }
  return files;
}

}  // namespace hcbench
