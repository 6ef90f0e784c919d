#include "bench/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "measure/sizes.h"

namespace hcbench {

std::string format_us(double us) {
  if (std::isnan(us)) return "-";
  char buf[64];
  if (us < 10) std::snprintf(buf, sizeof buf, "%.2f", us);
  else if (us < 1000) std::snprintf(buf, sizeof buf, "%.1f", us);
  else std::snprintf(buf, sizeof buf, "%.0f", us);
  return buf;
}

std::string format_ratio(double r) {
  if (std::isnan(r) || std::isinf(r)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2fx", r);
  return buf;
}

namespace {

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

size_t column_width(const std::string& name) { return std::max<size_t>(9, name.size() + 2); }

}  // namespace

std::string op_table(const Results& results, const std::string& op, bool rooted,
                     const std::vector<std::string>& impls) {
  const std::vector<int64_t> sizes = results.sizes(op);
  std::ostringstream out;
  if (sizes.empty()) return "";
  const bool with_hier = has(impls, "hier");
  std::vector<std::string> versus;  // speedup columns
  if (with_hier)
    for (const char* other : {"native", "han"})
      if (has(impls, other)) versus.push_back(other);

  out << op << (rooted ? " (µs, median over roots of each root's median)" : " (µs, median)") << "\n";
  out << pad("size", 7);
  for (const std::string& i : impls) out << pad(i, column_width(i));
  for (const std::string& v : versus) out << pad("hier/" + v, 13);
  out << "\n";
  bool any_wrong = false;
  for (int64_t b : sizes) {
    out << pad(format_size(b), 7);
    for (const std::string& i : impls) {
      std::string cell = format_us(results.aggregate(op, b, i).median);
      if (results.wrong(op, b, i)) {
        cell += "!";
        any_wrong = true;
      }
      out << pad(cell, column_width(i));
    }
    const double hier = results.aggregate(op, b, "hier").median;
    for (const std::string& v : versus)
      out << pad(format_ratio(speedup(results.aggregate(op, b, v).median, hier)), 13);
    out << "\n";
  }
  if (rooted) {
    out << op << " worst root (µs) and root spread (worst / best root)\n";
    out << pad("size", 7);
    for (const std::string& i : impls) out << pad(i, column_width(i));
    if (with_hier && has(impls, "native")) out << pad("hier/native", 13);
    for (const std::string& i : impls) out << pad(i, column_width(i));
    out << "\n";
    for (int64_t b : sizes) {
      out << pad(format_size(b), 7);
      for (const std::string& i : impls) {
        const RootAggregate a = results.aggregate(op, b, i);
        out << pad(format_us(a.max) + (a.worst_root >= 0 ? "@" + std::to_string(a.worst_root) : ""),
                   column_width(i));
      }
      if (with_hier && has(impls, "native"))
        out << pad(format_ratio(speedup(results.aggregate(op, b, "native").max, results.aggregate(op, b, "hier").max)),
                   13);
      for (const std::string& i : impls) out << pad(format_ratio(results.aggregate(op, b, i).spread()), column_width(i));
      out << "\n";
    }
  }
  if (any_wrong) out << "  ! = the checked call gave a WRONG result\n";
  return out.str();
}

std::string lower_bound_table(const Results& results, const Links& links, int nodes,
                              const std::vector<std::string>& ops) {
  std::ostringstream out;
  bool any = false;
  for (const std::string& op : ops) {
    for (int64_t b : results.sizes(op)) {
      const double bound = lower_bound_us(op, b, nodes, links);
      if (std::isnan(bound)) continue;
      if (!any) {
        out << "hier against the lower bound (µs; bounds defined in docs/BENCHMARK.md; busy: with the bandwidth\n"
               "of a link while all nodes send at once)\n";
        out << pad("op", 10) << pad("size", 7) << pad("bound", 10) << pad("hier", 10) << pad("hier/bound", 12)
            << pad("busy bound", 12) << pad("hier/busy", 11) << "\n";
        any = true;
      }
      const double hier = results.aggregate(op, b, "hier").median;
      const double busy = lower_bound_us(op, b, nodes, links, true);
      out << pad(op, 10) << pad(format_size(b), 7) << pad(format_us(bound), 10) << pad(format_us(hier), 10)
          << pad(format_ratio(speedup(hier, bound)), 12) << pad(format_us(busy), 12)
          << pad(format_ratio(speedup(hier, busy)), 11) << "\n";
    }
  }
  return out.str();
}

std::string lower_bound_csv(const Results& results, const Links& links, const LayoutInfo& layout,
                            const std::vector<std::string>& ops) {
  std::ostringstream out;
  out << "op,bytes,nodes,ppn,bound_us,hier_median_us,ratio,busy_bound_us,busy_ratio\n";
  for (const std::string& op : ops)
    for (int64_t b : results.sizes(op)) {
      const double bound = lower_bound_us(op, b, layout.nodes, links);
      if (std::isnan(bound)) continue;
      const double hier = results.aggregate(op, b, "hier").median;
      const double busy = lower_bound_us(op, b, layout.nodes, links, true);
      auto ratio = [](double r) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3f", r);
        return std::isnan(r) ? std::string("nan") : std::string(buf);
      };
      out << op << "," << b << "," << layout.nodes << "," << csv_field(layout.ppn_string()) << "," << csv_number(bound)
          << "," << csv_number(hier) << "," << ratio(speedup(hier, bound)) << "," << csv_number(busy) << ","
          << ratio(speedup(hier, busy)) << "\n";
    }
  return out.str();
}

std::vector<CsvRow> csv_rows(const Results& results, const LayoutInfo& layout, const std::vector<std::string>& ops,
                             const std::vector<std::string>& impls) {
  std::vector<CsvRow> rows;
  for (const std::string& op : ops)
    for (int64_t b : results.sizes(op))
      for (const std::string& impl : impls) {
        std::vector<const Measurement*> ms;
        for (const Measurement& m : results.all())
          if (m.op == op && m.bytes == b && m.impl == impl) ms.push_back(&m);
        std::sort(ms.begin(), ms.end(), [](const Measurement* x, const Measurement* y) { return x->root < y->root; });
        for (const Measurement* m : ms) {
          const Summary s = m->summary();
          CsvRow r;
          r.op = op;
          r.bytes = b;
          r.nodes = layout.nodes;
          r.ppn = layout.ppn_string();
          r.impl = impl;
          r.algorithm = m->algorithm;
          r.root = m->root;
          r.median_us = s.median;
          r.min_us = s.min;
          r.max_us = s.max;
          r.reps = s.n;
          rows.push_back(r);
        }
      }
  return rows;
}

}  // namespace hcbench
