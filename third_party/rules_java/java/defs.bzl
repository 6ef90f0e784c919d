"""Offline stand-in for @rules_java//java:defs.bzl.

@bazel_tools loads these even in a C++-only build; Bazel 4.2.3 has the Java
rules natively, so each one just forwards to native.*.
"""

def java_binary(**attrs):
    native.java_binary(**attrs)

def java_import(**attrs):
    native.java_import(**attrs)

def java_library(**attrs):
    native.java_library(**attrs)

def java_runtime(**attrs):
    native.java_runtime(**attrs)

def java_toolchain(**attrs):
    native.java_toolchain(**attrs)
