"""mpi_test: one MPI GoogleTest binary, run as one test per emulated layout."""

load("@rules_cc//cc:defs.bzl", "cc_binary")

# Emulated cluster layouts (tools/cluster.sh options) every MPI test runs on.
MPI_LAYOUTS = {
    "1x4": ["--nodes", "1", "--ppn", "4"],
    "2x2": ["--nodes", "2", "--ppn", "2"],
    "3x2": ["--nodes", "3", "--ppn", "2"],
    "uneven_3_1_2": ["--ppn-list", "3,1,2"],
    "4x2_round_robin": ["--nodes", "4", "--ppn", "2", "--map-by", "node"],
}

# Layouts that only the tests naming them run on.
OTHER_LAYOUTS = {
    "1x2": ["--nodes", "1", "--ppn", "2"],
    "2x4": ["--nodes", "2", "--ppn", "4"],
}

# The sanitized pass (`./hiercoll test --sanitize`) runs each MPI test on one
# layout: this one where the test runs on it, else the test's first. ASan and
# UBSan slow the ranks about ten times, and memory errors depend on the code
# paths, which this layout (uneven nodes, a node of one rank, 6 ranks) covers;
# the other layouts are tagged "layout_repeat", which the sanitize config
# filters out (.bazelrc).
SANITIZED_LAYOUT = "uneven_3_1_2"

# sanitized = False tags every layout of a test "not_sanitized", which the
# sanitize config filters out too: the algorithm matrices over MPI, whose
# schedules the in-process tests run sanitized (flat_inproc_test,
# hier_inproc_test, arrival_inproc_test) and whose MPI executor and
# runtime the API, nonblocking, persistent, threads and fuzz tests run
# sanitized. Sanitized, each took minutes (arrival_mpi_test 106 s on
# uneven_3_1_2, its socket-level run 120 s: 3.5 and 4.4 times unsanitized).
# tests/BUILD, tune/BUILD and bench/BUILD tag the packaging, link-model,
# preload and tool smoke tests so too.

def _layout_args(layout):
    return MPI_LAYOUTS[layout] if layout in MPI_LAYOUTS else OTHER_LAYOUTS[layout]

def mpi_test(name, srcs, deps = [], layouts = None, timeout_s = 900, size = "large", env = {}, sanitized = True, **kwargs):
    """Declares <name>_bin and one sh_test <name>_<layout> per layout."""
    cc_binary(
        name = name + "_bin",
        testonly = True,
        srcs = srcs,
        deps = deps + ["//tests:mpi_test_main"],
        **kwargs
    )
    mpi_test_runs(name, ":" + name + "_bin", layouts, timeout_s, size, env, sanitized = sanitized)

def mpi_test_runs(name, binary, layouts = None, timeout_s = 900, size = "large", env = {}, args = [], data = [], sanitized = True):
    """One sh_test <name>_<layout> per layout running `binary` with `args`.

    env: environment of every rank (HIERCOLL_* variables reach the ranks).
    data: files the ranks read (paths relative to the runfiles, the ranks'
    working directory).
    """
    _per_layout(
        name,
        "//tools:run_on_cluster.sh",
        data = [binary] + data,
        layouts = layouts,
        size = size,
        env = env,
        args_before = ["--timeout", str(timeout_s)],
        args_after = ["--", "$(rootpath %s)" % binary] + args,
        sanitized = sanitized,
    )

def mpi_script_test(name, script, data = [], layouts = None, size = "large"):
    """One sh_test <name>_<layout> per layout running `script`, which starts
    its MPI jobs itself (tools/cluster.sh), with the layout's tools/cluster.sh
    options as its arguments."""
    _per_layout(name, script, data = data, layouts = layouts, size = size)

# One sh_test per layout: `script` with args_before + the layout's options +
# args_after.
def _per_layout(name, script, data, layouts, size, env = {}, args_before = [], args_after = [], sanitized = True):
    chosen = MPI_LAYOUTS.keys() if layouts == None else layouts
    sanitized_layout = SANITIZED_LAYOUT if SANITIZED_LAYOUT in chosen else (chosen[0] if chosen else None)
    for layout in chosen:
        native.sh_test(
            name = name + "_" + layout,
            size = size,
            srcs = [script],
            args = args_before + _layout_args(layout) + args_after,
            data = data + ["//tools:cluster"],
            env = env,
            # One MPI job at a time on a 2-core machine.
            tags = ["exclusive", "mpi"] + ([] if layout == sanitized_layout else ["layout_repeat"]) +
                   ([] if sanitized else ["not_sanitized"]),
        )
