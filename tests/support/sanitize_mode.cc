#include "tests/support/sanitize_mode.h"

#include <cstdlib>
#include <cstring>

namespace hiercoll::testing {

bool sanitize_mode() {
  const char* v = std::getenv("HIERCOLL_TEST_SANITIZE");
  return v && std::strcmp(v, "1") == 0;
}

}  // namespace hiercoll::testing
