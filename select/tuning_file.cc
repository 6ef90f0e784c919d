#include "select/tuning_file.h"

#include "select/json_fields.h"
#include "select/model_figures_json.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace hiercoll {

namespace {

using json = nlohmann::json;
using namespace json_fields;
constexpr const char* kFormat = "hiercoll-tuning";
constexpr int kVersion = 1;

MachineFigures read_machine(const json& j, const std::string& where) {
  MachineFigures m;
  m.inter_latency_us = number_at(j, where, "inter_latency_us", 0);
  m.inter_bandwidth_gbps = number_at(j, where, "inter_bandwidth_gbps", 1e-9);
  m.intra_latency_us = number_at(j, where, "intra_latency_us", 0);
  m.intra_bandwidth_gbps = number_at(j, where, "intra_bandwidth_gbps", 1e-9);
  m.reduce_gbps = number_at(j, where, "reduce_gbps", 1e-9);
  m.source = string_at(j, where, "source", false);
  return m;
}

std::vector<TunedRange> read_ranges(const json& a, const std::string& where) {
  if (!a.is_array()) bad(where, "expected an array of ranges");
  std::vector<TunedRange> v;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string w = where + "[" + std::to_string(i) + "]";
    if (!a[i].is_object()) bad(w, "expected an object");
    TunedRange r;
    r.from_bytes = integer_at(a[i], w, "from_bytes", 0);
    r.to_bytes = integer_at(a[i], w, "to_bytes", -1);
    if (r.to_bytes >= 0 && r.to_bytes <= r.from_bytes) bad(w + ".to_bytes", "must be above from_bytes (or -1)");
    std::string error;
    if (!parse_method(string_at(a[i], w, "method"), &r.method, &error)) bad(w + ".method", error);
    r.segment_bytes = a[i].contains("segment_bytes") ? integer_at(a[i], w, "segment_bytes", 0) : 0;
    r.predicted_us = a[i].contains("predicted_us") ? number_at(a[i], w, "predicted_us", 0) : 0;
    if (a[i].contains("measured")) r.measured = boolean_at(a[i], w, "measured");
    if (!v.empty() && (v.back().to_bytes < 0 || r.from_bytes < v.back().to_bytes))
      bad(w + ".from_bytes", "overlaps the previous range (ranges must be sorted and disjoint)");
    v.push_back(r);
  }
  return v;
}

TuningEntry read_entry(const json& j, const std::string& where) {
  if (!j.is_object()) bad(where, "expected an object");
  TuningEntry e;
  e.layout = read_layout(object_at(j, where, "layout"), where + ".layout");
  e.machine = read_machine(object_at(j, where, "machine"), where + ".machine");
  e.created = string_at(j, where, "created", false);
  e.tool = string_at(j, where, "tool", false);
  if (j.contains("model")) {
    e.model = read_model_figures(j["model"], where + ".model", &e.model_source);
    e.has_model = true;
  }
  if (j.contains("hiercoll_version")) e.hiercoll_version = string_at(j, where, "hiercoll_version", false);
  const json& ops = object_at(j, where, "ops");
  for (auto it = ops.begin(); it != ops.end(); ++it) {
    Op op;
    if (!op_from_name(it.key().c_str(), &op)) bad(where + ".ops." + it.key(), "unknown operation");
    e.ranges[static_cast<int>(op)] = read_ranges(it.value(), where + ".ops." + it.key());
  }
  return e;
}

json write_entry(const TuningEntry& e) {
  const json layout = layout_json(e.layout);
  const MachineFigures& m = e.machine;
  json machine = {{"inter_latency_us", m.inter_latency_us},         {"inter_bandwidth_gbps", m.inter_bandwidth_gbps},
                  {"intra_latency_us", m.intra_latency_us},         {"intra_bandwidth_gbps", m.intra_bandwidth_gbps},
                  {"reduce_gbps", m.reduce_gbps},                   {"source", m.source}};
  json ops = json::object();
  for (int i = 0; i < kNumOps; ++i) {
    if (e.ranges[i].empty()) continue;
    json list = json::array();
    for (const TunedRange& r : e.ranges[i])
      list.push_back({{"from_bytes", r.from_bytes},
                      {"to_bytes", r.to_bytes},
                      {"method", method_text(r.method)},
                      {"segment_bytes", r.segment_bytes},
                      {"predicted_us", r.predicted_us},
                      {"measured", r.measured}});
    ops[op_name(static_cast<Op>(i))] = list;
  }
  json entry = {{"layout", layout}, {"machine", machine}, {"created", e.created}, {"tool", e.tool}, {"ops", ops}};
  if (!e.hiercoll_version.empty()) entry["hiercoll_version"] = e.hiercoll_version;
  if (e.has_model) entry["model"] = model_figures_json(e.model, e.model_source);
  return entry;
}

bool round_robin_fits(const LayoutKey& k, const std::vector<int>& node_of) {
  LayoutKey rr = k;
  rr.placement = "node";
  return nodes_of(rr) == node_of;
}

}  // namespace

bool LayoutKey::operator==(const LayoutKey& o) const {
  return ranks_per_node == o.ranks_per_node && placement == o.placement && node_of == o.node_of;
}

int LayoutKey::ranks() const {
  int n = 0;
  for (int r : ranks_per_node) n += r;
  return n;
}

std::vector<int> nodes_of(const LayoutKey& k) {
  if (k.placement == "list") return k.node_of;
  std::vector<int> node_of;
  const int nodes = static_cast<int>(k.ranks_per_node.size());
  if (k.placement == "slot") {
    for (int n = 0; n < nodes; ++n) node_of.insert(node_of.end(), k.ranks_per_node[n], n);
    return node_of;
  }
  // Round-robin over the nodes, skipping nodes that are full.
  std::vector<int> left = k.ranks_per_node;
  for (int placed = 0, total = k.ranks(); placed < total;)
    for (int n = 0; n < nodes; ++n)
      if (left[n] > 0) {
        --left[n];
        node_of.push_back(n);
        ++placed;
      }
  return node_of;
}

LayoutKey layout_key(const Layout& L) {
  LayoutKey k;
  for (int n = 0; n < L.num_nodes; ++n) k.ranks_per_node.push_back(L.node_size(n));
  if (L.consecutive) {
    k.placement = "slot";
  } else if (round_robin_fits(k, L.node_of)) {
    k.placement = "node";
  } else {
    k.placement = "list";
    k.node_of = L.node_of;
  }
  return k;
}

std::string layout_text(const LayoutKey& k) {
  std::string s;
  bool uniform = true;
  for (int r : k.ranks_per_node) uniform = uniform && r == k.ranks_per_node[0];
  if (uniform) {
    s = std::to_string(k.ranks_per_node.size()) + "x" + std::to_string(k.ranks_per_node[0]);
  } else {
    for (int r : k.ranks_per_node) s += (s.empty() ? "" : ",") + std::to_string(r);
  }
  return s + " " + k.placement;
}

int64_t tuning_bytes(Op op, int64_t unit_bytes, const CollArgs& a) {
  switch (op) {
    case Op::kBarrier: return 0;
    case Op::kAllgather: case Op::kGather: case Op::kScatter: case Op::kAlltoall: return unit_bytes;
    case Op::kGatherv: case Op::kScatterv: case Op::kAlltoallv: return 0;  // see selection_bytes
    case Op::kAllgatherv: case Op::kReduceScatter: return mean_block_bytes(unit_bytes, a);
    default: return unit_bytes * a.count;
  }
}

int64_t mean_block_bytes(int64_t unit_bytes, const CollArgs& a) {
  int64_t total = 0;
  for (int64_t c : a.counts) total += c;
  return a.size > 0 ? total * unit_bytes / a.size : 0;
}

bool parse_tuning_text(const std::string& text, const std::string& path, TuningFile* out, std::string* error) {
  return parse_checked(text, path, kFormat, kVersion, error, [&](const json& j, int64_t version) {
    TuningFile f;
    f.version = static_cast<int>(version);
    const json& entries = array_at(j, "(top)", "entries");
    for (size_t i = 0; i < entries.size(); ++i) {
      TuningEntry e = read_entry(entries[i], "entries[" + std::to_string(i) + "]");
      if (find_entry(f, e.layout)) bad("entries[" + std::to_string(i) + "].layout", "a second entry for this layout");
      f.entries.push_back(std::move(e));
    }
    *out = std::move(f);
  });
}

bool load_tuning_file(const std::string& path, TuningFile* out, std::string* error) {
  std::string text;
  return read_text_file(path, &text, error) && parse_tuning_text(text, path, out, error);
}

std::string tuning_to_text(const TuningFile& f) {
  json entries = json::array();
  for (const TuningEntry& e : f.entries) entries.push_back(write_entry(e));
  json j = {{"format", kFormat}, {"version", f.version}, {"entries", entries}};
  return j.dump(2) + "\n";
}

bool save_tuning_file(const std::string& path, const TuningFile& f, std::string* error) {
  return write_text_file(path, tuning_to_text(f), error);
}

const TuningEntry* find_entry(const TuningFile& f, const LayoutKey& k) {
  for (const TuningEntry& e : f.entries)
    if (e.layout == k) return &e;
  return nullptr;
}

void put_entry(TuningFile* f, const TuningEntry& e) {
  for (TuningEntry& old : f->entries)
    if (old.layout == e.layout) {
      old = e;
      return;
    }
  f->entries.push_back(e);
}

const TuningEntry* figures_entry(const TuningFile& f, const LayoutKey& k) {
  const TuningEntry* own = find_entry(f, k);
  if (own && own->has_model) return own;
  for (const TuningEntry& e : f.entries)
    if (e.has_model) return &e;
  return nullptr;
}

std::string figures_source(const std::string& path, const TuningEntry& e) {
  return path + " (entry " + layout_text(e.layout) + "): " + e.model_source;
}

const TunedRange* find_range(const TuningEntry& e, Op op, int64_t bytes) {
  for (const TunedRange& r : e.ranges[static_cast<int>(op)])
    if (r.contains(bytes)) return &r;
  return nullptr;
}

}  // namespace hiercoll
