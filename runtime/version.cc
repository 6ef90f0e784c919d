// hiercoll_version(): the version the library was built as (VERSION).
#include "hiercoll_version.h"
#include "runtime/hiercoll.h"

const char* hiercoll_version(void) { return HIERCOLL_VERSION; }
