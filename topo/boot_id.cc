#include "topo/boot_id.h"

#include <unistd.h>

#include <fstream>

namespace hiercoll {

std::string boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (in && std::getline(in, id) && !id.empty()) return id;
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return std::string("host:") + host;
}

}  // namespace hiercoll
