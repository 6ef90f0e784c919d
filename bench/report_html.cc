#include "bench/report_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "measure/sizes.h"

namespace hcbench {

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// A ratio's cell: "1.52", or "1.52 (1.40–1.60)" over several jobs; class
// good/bad where it is clearly above/below 1 (for lower-is-better ratios
// such as hier/bound, neither: they are never below 1 by much).
std::string ratio_cell(const Summary& s, bool colour) {
  if (s.n == 0 || std::isnan(s.median)) return "<td>–</td>";
  std::string cls;
  if (colour && s.median >= 1.05) cls = " class=\"good\"";
  if (colour && s.median <= 0.95) cls = " class=\"bad\"";
  std::string text = fixed2(s.median);
  if (s.n > 1) text += " <small>(" + fixed2(s.min) + "–" + fixed2(s.max) + ")</small>";
  return "<td" + cls + ">" + text + "</td>";
}

Summary at(const std::map<std::pair<std::string, int64_t>, Summary>& m, const std::string& impl, int64_t b) {
  const auto it = m.find({impl, b});
  return it == m.end() ? summarize({}) : it->second;
}

std::string anchor(const std::string& op) { return "op-" + op; }

// The glance table: per operation and implementation, the lowest and the
// highest median speedup over the sizes.
void glance_table(const ReportData& d, std::ostringstream& h) {
  std::vector<std::string> impls;
  for (const OpReport& o : d.ops)
    for (const std::string& i : o.impls)
      if (std::find(impls.begin(), impls.end(), i) == impls.end()) impls.push_back(i);
  h << "<h2>At a glance: speedup over native, lowest – highest over the sizes</h2>\n<table>\n<tr><th>operation</th>";
  for (const std::string& i : impls) h << "<th>" << escape(i) << "</th>";
  h << "</tr>\n";
  for (const OpReport& o : d.ops) {
    h << "<tr><th><a href=\"#" << escape(anchor(o.op)) << "\">" << escape(o.op) << "</a></th>";
    for (const std::string& i : impls) {
      std::vector<double> medians;
      for (int64_t b : o.sizes) {
        const Summary s = at(o.speedup, i, b);
        if (s.n > 0 && !std::isnan(s.median)) medians.push_back(s.median);
      }
      if (medians.empty()) {
        h << "<td>–</td>";
        continue;
      }
      const auto mm = std::minmax_element(medians.begin(), medians.end());
      const char* cls = *mm.first >= 1.05 ? " class=\"good\"" : (*mm.second <= 0.95 ? " class=\"bad\"" : "");
      h << "<td" << cls << ">" << fixed2(*mm.first) << " – " << fixed2(*mm.second) << "</td>";
    }
    h << "</tr>\n";
  }
  h << "</table>\n";
}

void op_section(const ReportData& d, const OpReport& o, const std::vector<Figure>& figures, std::ostringstream& h) {
  h << "<section id=\"" << escape(anchor(o.op)) << "\">\n<h2>" << escape(o.op)
    << (o.rooted ? " <small>(median over roots)</small>" : "") << "</h2>\n";
  if (d.has_reference && !o.impls.empty()) {
    h << "<table>\n<caption>speedup over native (native's time / the implementation's)</caption>\n<tr><th>size</th>";
    for (const std::string& i : o.impls) h << "<th>" << escape(i) << "</th>";
    h << "</tr>\n";
    for (int64_t b : o.sizes) {
      h << "<tr><th>" << (b == 0 && o.sizes.size() == 1 ? "-" : escape(format_size(b))) << "</th>";
      for (const std::string& i : o.impls) h << ratio_cell(at(o.speedup, i, b), true);
      h << "</tr>\n";
    }
    h << "</table>\n";
  }
  if (!o.bound.empty()) {
    h << "<table>\n<caption>hier's time over the lower bound (1.00: at the bound)</caption>\n"
         "<tr><th>size</th><th>hier / bound</th><th>links busy</th></tr>\n";
    for (const auto& [b, s] : o.bound) {
      const auto busy = o.busy_bound.find(b);
      h << "<tr><th>" << escape(format_size(b)) << "</th>" << ratio_cell(s, false)
        << ratio_cell(busy == o.busy_bound.end() ? summarize({}) : busy->second, false) << "</tr>\n";
    }
    h << "</table>\n";
  }
  for (const Figure& f : figures)
    h << "<figure><img src=\"" << escape(f.src) << "\" alt=\"" << escape(f.caption) << "\"><figcaption>"
      << escape(f.caption) << "</figcaption></figure>\n";
  h << "</section>\n";
}

const char* const kStyle =
    "body{font-family:sans-serif;margin:1.5em;max-width:1100px;color:#222}"
    "pre{background:#f4f4f4;padding:.6em;overflow-x:auto}"
    "table{border-collapse:collapse;margin:.8em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}"
    "caption{text-align:left;font-style:italic;padding:.2em 0;white-space:nowrap}"
    "td.good{background:#d8f0d8}td.bad{background:#f6d6d6}"
    "figure{margin:.8em 0}img{max-width:100%;border:1px solid #ddd}"
    "figcaption{font-size:.9em;color:#555}section{border-top:2px solid #888;margin-top:1.5em}";

}  // namespace

std::string report_html(const ReportData& d, const ReportPage& page) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << escape(page.title)
    << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n";
  h << "<h1>" << escape(page.title) << (d.layout.empty() ? "" : " – " + escape(d.layout)) << "</h1>\n";
  if (!page.header.empty()) {
    h << "<pre>";
    for (const std::string& line : page.header) h << escape(line) << "\n";
    h << "</pre>\n";
  }
  h << "<p>Speedup: native's time (Open MPI's default collectives) over the implementation's, per call, the "
       "slowest rank's time"
    << (d.jobs > 1 ? "; median over " + std::to_string(d.jobs) + " jobs with the lowest and highest in brackets"
                   : "")
    << ". Above 1.00 (green) is faster than Open MPI, below (red) slower. hier / bound: hier's time over the "
       "lower bound from the measured links (docs/BENCHMARK.md), 1.00 being at the bound.</p>\n";
  for (const std::string& n : page.notes) h << "<p><b>Note:</b> " << escape(n) << "</p>\n";
  if (!page.links.empty()) {
    h << "<p>Files:";
    for (const auto& [text, href] : page.links)
      h << " <a href=\"" << escape(href) << "\">" << escape(text) << "</a>";
    h << "</p>\n";
  }
  if (d.has_reference) glance_table(d, h);
  else h << "<p>No speedups: native (Open MPI's default) was not among the implementations measured.</p>\n";
  for (size_t k = 0; k < d.ops.size(); ++k)
    op_section(d, d.ops[k], k < page.figures.size() ? page.figures[k] : std::vector<Figure>{}, h);
  h << "</body>\n</html>\n";
  return h.str();
}

}  // namespace hcbench
