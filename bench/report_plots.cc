#include "bench/report_plots.h"

#include <cmath>
#include <map>
#include <sstream>

namespace hcbench {

namespace {

struct Series {
  std::string title;
  std::map<int64_t, Summary> points;  // by bytes
};

// A ratio against the size, one line per series with its range over jobs
// as error bars (when there are several jobs), and the line at 1.0. Writes
// <name>.dat and <name>.gp (drawing <name>.png).
void ratio_plot(const std::string& name, const std::string& title, const std::string& ylabel,
                const std::string& one_title, const std::vector<int64_t>& sizes, const std::vector<Series>& series,
                bool ranges, std::vector<TextFile>* files) {
  std::ostringstream dat;
  dat << "# bytes";
  for (const Series& s : series) dat << "  " << s.title << ":median,lowest,highest";
  dat << "\n";
  for (int64_t b : sizes) {
    dat << b;
    for (const Series& s : series) {
      const auto it = s.points.find(b);
      const Summary v = it == s.points.end() ? summarize({}) : it->second;
      dat << " " << gp_number(v.median) << " " << gp_number(v.min) << " " << gp_number(v.max);
    }
    dat << "\n";
  }
  files->push_back({name + ".dat", dat.str()});

  const bool sized = !(sizes.size() == 1 && sizes[0] == 0);
  std::ostringstream gp;
  gp << gp_header(name + ".png", 1000, 560);
  gp << "set title " << gp_quoted(gp_plain(title)) << "\n";
  gp << "set ylabel " << gp_quoted(ylabel) << "\n";
  // Room around the points, so that no line lies on the frame.
  gp << "set logscale y 2\nset autoscale xfix\nset offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08\n"
     << "set bars 2\n" << gp_size_axis(sizes);
  gp << "plot ";
  const double n = static_cast<double>(series.size());
  for (size_t i = 0; i < series.size(); ++i) {
    // Series spread apart a little, so that their bars do not hide each other.
    const double k = static_cast<double>(i) - (n - 1) / 2;
    const std::string x = sized ? "($1*" + gp_number(std::pow(1.06, k)) + ")" : "($1+" + gp_number(0.08 * k) + ")";
    const int col = 2 + 3 * static_cast<int>(i);
    gp << (i ? ", \\\n     " : "") << gp_quoted(name + ".dat") << " using " << x << ":" << col;
    if (ranges) gp << ":" << col + 1 << ":" << col + 2 << " with yerrorlines";
    else gp << " with linespoints";
    gp << " lw 2 pt " << (i % 10 + 4) << " title " << gp_quoted(gp_plain(series[i].title));
  }
  gp << (series.empty() ? "" : ", \\\n     ") << "1 with lines dt 2 lw 2 lc rgb \"black\" title "
     << gp_quoted(gp_plain(one_title)) << "\n";
  files->push_back({name + ".gp", gp.str()});
}

std::string png_stem(const std::string& png) { return png.substr(0, png.size() - 4); }

}  // namespace

std::string speedup_png(const OpReport& op, const ReportData& data) {
  return data.has_reference && !op.impls.empty() ? op.op + "_speedup.png" : "";
}

std::string bound_png(const OpReport& op) { return op.bound.empty() ? "" : op.op + "_bound.png"; }

std::vector<TextFile> report_plot_files(const ReportData& data, const std::string& context) {
  std::vector<TextFile> files;
  const bool ranges = data.jobs > 1;
  const std::string over = ranges ? ", median and range over " + std::to_string(data.jobs) + " jobs" : "";
  for (const OpReport& o : data.ops) {
    if (!speedup_png(o, data).empty()) {
      std::vector<Series> series;
      for (const std::string& impl : o.impls) {
        Series s{impl, {}};
        for (int64_t b : o.sizes) {
          const auto it = o.speedup.find({impl, b});
          if (it != o.speedup.end()) s.points[b] = it->second;
        }
        series.push_back(s);
      }
      ratio_plot(png_stem(speedup_png(o, data)),
                 o.op + (o.rooted ? " (median over roots)" : "") + ": speedup over " + kReportReference +
                     " (Open MPI's default)" + over + " - " + context,
                 "speedup over native (native's time / its time)", std::string(kReportReference) + " (1.0)",
                 o.sizes, series, ranges, &files);
    }
    if (!bound_png(o).empty()) {
      std::vector<int64_t> sizes;
      for (const auto& [b, s] : o.bound) sizes.push_back(b);
      ratio_plot(png_stem(bound_png(o)), o.op + ": hier's time over the lower bound" + over + " - " + context,
                 "hier's time / lower bound", "the bound (1.0)", sizes,
                 {{"hier / bound", o.bound}, {"hier / bound with every link busy", o.busy_bound}}, ranges, &files);
    }
  }
  return files;
}

}  // namespace hcbench
