// The link model the emulated cluster was started with (tools/cluster.sh
// --nic RATE passes HIERCOLL_CLUSTER_NIC_BITS=<bit/s> to every rank): every
// node sends its inter-node traffic through one link of that rate, shared
// by its ranks. For the benchmark's header and context.
#pragma once

#include <string>

namespace hcbench {

struct LinkModel {
  double bits_per_s = 0;  // 0: no model (unset)
  bool active() const { return bits_per_s > 0; }
  double bytes_per_us() const { return bits_per_s / 8e6; }  // MB/s
};

// From the variable's value (nullptr: unset, no model). A value that is not
// a positive number of bits per second sets *error and gives no model.
LinkModel parse_link_model(const char* value, std::string* error);
LinkModel link_model_from_env(std::string* error);

// One line for the header: the model, or that there is none.
std::string describe_link_model(const LinkModel& model);

}  // namespace hcbench
