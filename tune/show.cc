#include "tune/show.h"

#include <cstdio>

#include "measure/sizes.h"

namespace hctune {

namespace {

std::string size_text(int64_t b) { return b < 0 ? "..." : hcbench::format_size(b); }

std::string pad(const std::string& s, size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); }

// A time measured, interpolated between measured sizes, or predicted by
// the model (an entry of `tune --model`, which carries its figures and
// measures nothing).
const char* how(const hiercoll::TuningEntry& e, const hiercoll::TunedRange& r) {
  if (r.measured) return "measured";
  return e.has_model ? "model" : "interpolated";
}

}  // namespace

std::string decisions_table(const hiercoll::TuningFile& f) {
  std::string out;
  char buf[512];
  for (const hiercoll::TuningEntry& e : f.entries) {
    const hiercoll::MachineFigures& m = e.machine;
    const std::string by = e.hiercoll_version.empty() ? "" : " by hiercoll " + e.hiercoll_version;
    out += "layout " + hiercoll::layout_text(e.layout) + (e.created.empty() ? "" : " (tuned " + e.created + by + ")") +
           "\n";
    std::snprintf(buf, sizeof buf,
                  "  machine: inter-node %.1f us + %.2f GB/s, intra-node %.2f us + %.2f GB/s, reduce %.2f GB/s\n",
                  m.inter_latency_us, m.inter_bandwidth_gbps, m.intra_latency_us, m.intra_bandwidth_gbps,
                  m.reduce_gbps);
    out += buf;
    if (!m.source.empty()) out += "  (" + m.source + ")\n";
    out += "  " + pad("op", 11) + pad("sizes", 16) + pad("method", 44) + pad("segment", 9) + pad("time us", 10) +
           "how\n";
    for (int i = 0; i < hiercoll::kNumOps; ++i)
      for (const hiercoll::TunedRange& r : e.ranges[i]) {
        const std::string sizes = size_text(r.from_bytes) + " - " + size_text(r.to_bytes);
        std::snprintf(buf, sizeof buf, "%.1f", r.predicted_us);
        out += "  " + pad(hiercoll::op_name(static_cast<hiercoll::Op>(i)), 11) + pad(sizes, 16) +
               pad(hiercoll::method_text(r.method), 44) + pad(r.segment_bytes ? size_text(r.segment_bytes) : "rules", 9) +
               pad(buf, 10) + how(e, r) + "\n";
      }
  }
  if (f.entries.empty()) out += "(no entries)\n";
  return out;
}

}  // namespace hctune
