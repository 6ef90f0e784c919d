#include "measure/results.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hcbench {

std::string LayoutInfo::ppn_string() const {
  bool uniform = !ppn.empty();
  for (int k : ppn) uniform = uniform && k == ppn.front();
  if (uniform) return std::to_string(ppn.front());
  std::string s;
  for (size_t i = 0; i < ppn.size(); ++i) s += (i ? "+" : "") + std::to_string(ppn[i]);
  return s;
}

std::string LayoutInfo::short_name() const {
  const std::string p = ppn_string();
  if (p.find('+') != std::string::npos) return p;
  return std::to_string(nodes) + "x" + p;
}

double lower_bound_us(const std::string& op, int64_t bytes, int nodes, const Links& links, bool busy) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Link& link = nodes > 1 ? links.inter : links.intra;
  if (!link.measured || !(link.beta_bytes_per_us > 0)) return nan;
  if (busy && (nodes < 2 || !links.inter_busy.measured || !(links.inter_busy.beta_bytes_per_us > 0))) return nan;
  const double n = static_cast<double>(bytes);
  const double p = std::max(nodes, 2);
  const bool node_out = nodes > 1 && links.node_out.measured;
  const double idle_beta = std::max(link.beta_bytes_per_us, node_out ? links.node_out.beta_bytes_per_us : 0.0);
  const double ring_beta = busy ? links.inter_busy.beta_bytes_per_us : idle_beta;
  if (op == "bcast" || op == "reduce") {
    // The ring had p transfers at once, a pipelined bcast has p-1: each
    // gets p/(p-1) of the ring's share (but never more than a link alone).
    const double beta = busy ? std::min(idle_beta, ring_beta * p / (p - 1)) : idle_beta;
    return link.alpha_us + n / beta;
  }
  if (op == "allreduce") return 2 * link.alpha_us + 2 * (p - 1) / p * n / ring_beta;
  return nan;
}

std::vector<RootSummary> Results::per_root(const std::string& op, int64_t bytes, const std::string& impl) const {
  std::vector<RootSummary> out;
  for (const Measurement& m : all_)
    if (m.op == op && m.bytes == bytes && m.impl == impl) out.push_back({m.root, m.summary()});
  std::sort(out.begin(), out.end(), [](const RootSummary& a, const RootSummary& b) { return a.root < b.root; });
  return out;
}

RootAggregate Results::aggregate(const std::string& op, int64_t bytes, const std::string& impl) const {
  return aggregate_roots(per_root(op, bytes, impl));
}

std::string Results::algorithm(const std::string& op, int64_t bytes, const std::string& impl) const {
  std::vector<std::string> names;
  for (const Measurement& m : all_)
    if (m.op == op && m.bytes == bytes && m.impl == impl &&
        std::find(names.begin(), names.end(), m.algorithm) == names.end())
      names.push_back(m.algorithm);
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

void Results::mark_wrong(const std::string& op, int64_t bytes, const std::string& impl) {
  for (Measurement& m : all_)
    if (m.op == op && m.bytes == bytes && m.impl == impl) m.wrong = true;
}

bool Results::wrong(const std::string& op, int64_t bytes, const std::string& impl) const {
  for (const Measurement& m : all_)
    if (m.op == op && m.bytes == bytes && m.impl == impl && m.wrong) return true;
  return false;
}

std::vector<int64_t> Results::sizes(const std::string& op) const {
  std::vector<int64_t> out;
  for (const Measurement& m : all_)
    if (m.op == op) out.push_back(m.bytes);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace hcbench
