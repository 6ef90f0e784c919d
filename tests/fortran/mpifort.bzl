"""mpifort_binary: an MPI Fortran program, compiled by Open MPI's mpifort.

Bazel 4 has no Fortran rules; a genrule runs the system's mpifort (gfortran,
from ./hiercoll deps) on one source file.  Module files go to a directory of
the action's own, so that programs built at once do not share checks.mod.
"""

_LIB = "//runtime:libhiercoll.so"

def mpifort_binary(name, src, hdrs = [], fflags = [], link_hiercoll = False, **kwargs):
    """Compiles `src` into the executable `name`.

    hdrs: the files `src` #includes (beside it).
    fflags: mpifort's options (defines, warnings).
    link_hiercoll: link libhiercoll.so before Open MPI's Fortran libraries, so
    its Fortran symbols serve the program without a preload (found at run
    time through an rpath relative to the executable: bazel-bin keeps
    runtime/ two levels above tests/fortran/).
    """
    srcs = [src] + hdrs
    link = ""
    if link_hiercoll:
        srcs.append(_LIB)
        link = " -L$$(dirname $(execpath %s)) -lhiercoll -Wl,-rpath,'$$ORIGIN/../../runtime'" % _LIB
    native.genrule(
        name = name + "_compile",
        srcs = srcs,
        outs = [name],
        cmd = ("mods=$$(mktemp -d) && mpifort -O2 %s -J$$mods -o $@ $(execpath %s)%s; rc=$$?; rm -rf $$mods; exit $$rc" %
               (" ".join(fflags), src, link)),
        testonly = True,
        **kwargs
    )
