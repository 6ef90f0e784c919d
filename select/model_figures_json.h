// The cost model's figures (sim/cost_model.h) in JSON: one object whose
// keys are the simulator's figure options spelled as fields,
//
//   { "alpha_us": 50.4, "bandwidth_gbps": 0.214, "shm_alpha_us": 1.98,
//     "shm_bandwidth_gbps": 2.53, "reduce_gbps": 4.63, "burst_bytes": 65536,
//     "latency_overlaps": true, "cores": 2, "cores_shared_by_all": true,
//     "message_cpu_us": 14.3, "eager_limit": 65536, "shm_eager_limit": 4096,
//     "source": "calibrated ..." }
//
// carried by a tuning file's entry ("model") and by a figures file of its
// own ({"format": "hiercoll-figures", "version": 1, "model": {...}}), which
// `hiercoll simulate --calibrate ... --figures-out FILE` writes and
// `--figures FILE` reads (simulate, explain, tune --model).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/cost_model.h"

namespace hiercoll {

// Reads the object at `where` (a key path for messages); throws
// json_fields::BadValue on a missing or ill-typed field or on figures the
// model cannot use (check_cost_model).
CostModel read_model_figures(const nlohmann::json& j, const std::string& where, std::string* source);
nlohmann::json model_figures_json(const CostModel& m, const std::string& source);

// A figures file, or a tuning file's first entry that carries figures.
// False with one line in *error.
bool load_figures_file(const std::string& path, CostModel* model, std::string* source, std::string* error);
bool save_figures_file(const std::string& path, const CostModel& model, const std::string& source,
                       std::string* error);

}  // namespace hiercoll
