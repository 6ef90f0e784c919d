"""Offline stand-in for @rules_cc//cc:defs.bzl.

Bazel 4.2.3 still ships the C++ rules natively; this file only forwards to
them so that `load("@rules_cc//cc:defs.bzl", ...)` (used by @bazel_tools and
by our BUILD files) works without downloading the real rules_cc.
"""

def cc_binary(**attrs):
    native.cc_binary(**attrs)

def cc_import(**attrs):
    native.cc_import(**attrs)

def cc_library(**attrs):
    native.cc_library(**attrs)

def cc_test(**attrs):
    native.cc_test(**attrs)

def cc_toolchain(**attrs):
    native.cc_toolchain(**attrs)

def cc_toolchain_suite(**attrs):
    native.cc_toolchain_suite(**attrs)
