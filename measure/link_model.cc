#include "measure/link_model.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace hcbench {

LinkModel parse_link_model(const char* value, std::string* error) {
  LinkModel m;
  if (value == nullptr) return m;
  char* end = nullptr;
  errno = 0;
  const double bits = std::strtod(value, &end);
  if (*value == '\0' || *end != '\0' || errno != 0 || !(bits > 0)) {
    *error = std::string("HIERCOLL_CLUSTER_NIC_BITS='") + value + "' is not a positive number of bits per second";
    return m;
  }
  m.bits_per_s = bits;
  return m;
}

LinkModel link_model_from_env(std::string* error) {
  return parse_link_model(std::getenv("HIERCOLL_CLUSTER_NIC_BITS"), error);
}

std::string describe_link_model(const LinkModel& m) {
  if (!m.active())
    return "none (no --nic: on the emulated cluster inter-node TCP is loopback, limited by the CPUs only)";
  char buf[256];
  const double b = m.bits_per_s;
  std::snprintf(buf, sizeof buf,
                "every node sends through one link of %g %s (%.1f MB/s) shared by its ranks (--nic); "
                "receiving, latency and shared memory not modelled",
                b >= 1e9 ? b / 1e9 : b / 1e6, b >= 1e9 ? "Gbit/s" : "Mbit/s", m.bytes_per_us());
  return buf;
}

}  // namespace hcbench
