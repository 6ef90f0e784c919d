"""hiercoll's version, written here only.

Read by Bazel (the header hiercoll_version.h, the library's SONAME
libhiercoll.so.<MAJOR>) and by the entry script (install, deb, --version).
"""

HIERCOLL_VERSION = "1.0.0"

HIERCOLL_MAJOR = HIERCOLL_VERSION.split(".")[0]
