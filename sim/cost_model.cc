#include "sim/cost_model.h"

#include <cmath>

namespace hiercoll {

namespace {

bool finite_at_least(double v, double low) { return std::isfinite(v) && v >= low; }

}  // namespace

std::string check_cost_model(const CostModel& m) {
  if (!finite_at_least(m.alpha_us, 0)) return "--alpha must be a latency >= 0 (microseconds)";
  if (!finite_at_least(m.shm_alpha_us, 0)) return "--shm-alpha must be a latency >= 0 (microseconds)";
  if (!finite_at_least(m.bandwidth_gbps, 0) || m.bandwidth_gbps == 0) return "--bandwidth must be > 0 (GB/s)";
  if (!finite_at_least(m.shm_bandwidth_gbps, 0) || m.shm_bandwidth_gbps == 0)
    return "--shm-bandwidth must be > 0 (GB/s)";
  if (!finite_at_least(m.reduce_gbps, 0) || m.reduce_gbps == 0) return "--reduce-bandwidth must be > 0 (GB/s)";
  if (!finite_at_least(m.burst_bytes, 0)) return "--link-burst must be >= 0 bytes";
  if (!finite_at_least(m.eager_limit, 0)) return "--eager-limit must be >= 0 bytes";
  if (!finite_at_least(m.shm_eager_limit, 0)) return "--shm-eager-limit must be >= 0 bytes";
  if (m.cores < 0) return "--cores must be >= 0";
  if (!finite_at_least(m.message_cpu_us, 0)) return "--message-cpu must be >= 0 (microseconds)";
  return "";
}

}  // namespace hiercoll
