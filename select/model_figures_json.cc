#include "select/model_figures_json.h"

#include "select/json_fields.h"
#include "select/tuning_file.h"

namespace hiercoll {

namespace {

using json = nlohmann::json;
using namespace json_fields;
constexpr const char* kFormat = "hiercoll-figures";
constexpr int kVersion = 1;

}  // namespace

CostModel read_model_figures(const json& j, const std::string& where, std::string* source) {
  if (!j.is_object()) bad(where, "expected an object");
  CostModel m;
  m.alpha_us = number_at(j, where, "alpha_us", 0);
  m.bandwidth_gbps = number_at(j, where, "bandwidth_gbps", 1e-9);
  m.shm_alpha_us = number_at(j, where, "shm_alpha_us", 0);
  m.shm_bandwidth_gbps = number_at(j, where, "shm_bandwidth_gbps", 1e-9);
  m.reduce_gbps = number_at(j, where, "reduce_gbps", 1e-9);
  m.burst_bytes = number_at(j, where, "burst_bytes", 0);
  m.latency_overlaps = boolean_at(j, where, "latency_overlaps");
  m.cores = static_cast<int>(integer_at(j, where, "cores", 0));
  m.cores_shared_by_all = boolean_at(j, where, "cores_shared_by_all");
  m.message_cpu_us = number_at(j, where, "message_cpu_us", 0);
  m.eager_limit = number_at(j, where, "eager_limit", 0);
  m.shm_eager_limit = number_at(j, where, "shm_eager_limit", 0);
  m.simplex = j.contains("simplex") && boolean_at(j, where, "simplex");  // files from before it: duplex
  const std::string why = check_cost_model(m);
  if (!why.empty()) bad(where, why);
  if (source) *source = string_at(j, where, "source", false);
  return m;
}

json model_figures_json(const CostModel& m, const std::string& source) {
  return {{"alpha_us", m.alpha_us},
          {"bandwidth_gbps", m.bandwidth_gbps},
          {"shm_alpha_us", m.shm_alpha_us},
          {"shm_bandwidth_gbps", m.shm_bandwidth_gbps},
          {"reduce_gbps", m.reduce_gbps},
          {"burst_bytes", m.burst_bytes},
          {"latency_overlaps", m.latency_overlaps},
          {"cores", m.cores},
          {"cores_shared_by_all", m.cores_shared_by_all},
          {"message_cpu_us", m.message_cpu_us},
          {"eager_limit", m.eager_limit},
          {"shm_eager_limit", m.shm_eager_limit},
          {"simplex", m.simplex},
          {"source", source}};
}

bool load_figures_file(const std::string& path, CostModel* model, std::string* source, std::string* error) {
  std::string text;
  if (!read_text_file(path, &text, error)) return false;
  // A tuning file serves too: its first entry that carries figures.
  const json head = json::parse(text, nullptr, false);
  if (head.is_object() && head.contains("format") && head["format"] == "hiercoll-tuning") {
    TuningFile f;
    if (!parse_tuning_text(text, path, &f, error)) return false;
    // No layout given: the first entry that carries figures.
    const TuningEntry* e = figures_entry(f, LayoutKey{});
    if (!e) {
      *error = path + ": no entry carries model figures (\"model\")";
      return false;
    }
    *model = e->model;
    *source = figures_source(path, *e);
    return true;
  }
  return parse_checked(text, path, kFormat, kVersion, error, [&](const json& j, int64_t) {
    std::string s;
    *model = read_model_figures(object_at(j, "(top)", "model"), "model", &s);
    *source = path + ": " + s;
  });
}

bool save_figures_file(const std::string& path, const CostModel& model, const std::string& source,
                       std::string* error) {
  const json j = {{"format", kFormat}, {"version", kVersion}, {"model", model_figures_json(model, source)}};
  return write_text_file(path, j.dump(2) + "\n", error);
}

}  // namespace hiercoll
